import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator

/// One device in one simulated world, for tests: an in-process provider and backend (``Simulator``) on a
/// ``ManualClock``, and the device-side storage (``InMemorySecureStore``, ``InMemoryJournal``, ``RecordingLogger``)
/// that survives relaunches of the service.
///
/// ```swift
/// let device = try SimulatedDevice()                     // a world with default knobs
/// let service = try await device.registeredService()     // Active H, registered through the social path
/// device.clock.advance(by: 7200)                         // expire the access token without sleeping
/// ```
public struct SimulatedDevice: Sendable {
    /// The world's and the device's time.
    public let clock: ManualClock
    /// The identity provider and registration backend.
    public let simulator: Simulator
    /// The device's secure store.
    public let store: InMemorySecureStore
    /// The device's event journal.
    public let journal: InMemoryJournal
    /// Everything the engine logged.
    public let logger: RecordingLogger
    /// The knobs the world was created with (the simulator's setters change them later).
    public let world: SimulatorConfiguration

    /// The redirect URI the device registers with.
    public static let redirect = URL(string: "com.example.app:/callback") ?? URL(fileURLWithPath: "/callback")
    /// One provider key for every simulated world: a checked-in test key, since RSA key generation is the slowest thing
    /// a world would do.
    public static let sharedSigningKey: RSAPrivateKey? = CheckedInKeys.provider

    /// Creates a world with the knobs `configure` sets (lifetimes, offline, refusal, limits, …).
    ///
    /// - Throws: ``SimulatorError`` when the world cannot be made.
    public init(clock: ManualClock = ManualClock(), configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws {
        var configuration = SimulatorConfiguration()
        configuration.signingKey = Self.sharedSigningKey
        configure(&configuration)
        world = configuration
        self.clock = clock
        simulator = try Simulator(configuration: configuration, clock: clock)
        store = InMemorySecureStore()
        journal = InMemoryJournal()
        logger = RecordingLogger()
    }

    /// The engine configuration that points at the simulator.
    ///
    /// Its ``RegStateConfiguration/launchBudget`` is 60 s, not 2 s, of the ``ManualClock``'s time (its waits end only
    /// when the clock is moved past them, never on wall time): a test that moves the clock while a launch renewal is
    /// out does not settle offline by accident. Tests of the budget set their own. Its token endpoint's retry of an
    /// unexplained answer (``OIDCConfiguration/unexplainedAnswerRetryDelay``) comes at once.
    /// Its ``RegStateConfiguration/checksRegistrationAtLaunch`` is `false`: the check runs in the background after a
    /// launch, and a test that counts requests must see only what it asked for. Tests of the check turn it on.
    public var configuration: RegStateConfiguration {
        var configuration = RegStateConfiguration(
            oidc: OIDCConfiguration(issuer: world.issuer, clientID: world.clientID, redirectURI: Self.redirect),
            backendURL: world.backendURL,
            nonNativeAccessToken: "agreed-non-native-token")
        configuration.launchBudget = 60
        // The token endpoint's retry of an unexplained answer waits on the clock too: at once here, so a test whose
        // provider answers a bare 400 does not wait for a clock nobody moves.
        configuration.oidc.unexplainedAnswerRetryDelay = 0
        configuration.checksRegistrationAtLaunch = false
        configuration.backendRetiresSecurityTokens = world.offersSecurityTokenRetirement
        return configuration
    }

    /// A service as a fresh app launch would build it: a new actor over the same store, journal and world.
    public func launch(platform: any PlatformService = SystemPlatformService(formFactor: "390x844"),
                       transport: (any HTTPTransport)? = nil) -> RegStateService {
        RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: store, journal: journal, transport: transport ?? simulator.transport, clock: clock,
            platform: platform, logger: logger))
    }

    /// The social sign-in on `service`, which must be in **D** (or after an error): the authorization URL, the user
    /// `email` at the simulator's authorization endpoint, the redirect back. Returns the profile awaiting confirmation
    /// (**G**).
    ///
    /// - Throws: whatever the registration throws.
    @discardableResult
    public func signIn(_ service: RegStateService, as email: String = "alice@example.com") async throws -> Profile {
        let url = try await service.beginSocialRegistration()
        let callback = try await simulator.authorize(url, as: email)
        return try await service.completeSocialRegistration(callback: callback)
    }

    /// A launched service, registered as `email` through the social path (D, G, Confirm): Active H.
    ///
    /// - Throws: whatever the registration throws.
    public func registeredService(email: String = "alice@example.com") async throws -> RegStateService {
        let service = launch()
        await service.start()
        try await signIn(service, as: email)
        try await service.confirmRegistration()
        return service
    }
}
