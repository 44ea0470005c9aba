import Foundation
import Testing
@testable import RegState
import RegStateSimulator

/// One simulated world (provider + backend on a manual clock) and the device-side storage that survives relaunches.
struct EngineHarness {
    let clock = ManualClock()
    let simulator: Simulator
    let store = InMemorySecureStore()
    let journal = InMemoryJournal()
    static let redirect = URL(string: "com.example.app:/callback")!

    /// One provider key for every engine test: RSA key generation is the slowest thing a world does.
    static let sharedSigningKey: RSAPrivateKey? = try? SystemCrypto().generateRSAPrivateKey(bits: 2048)

    init(configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws {
        var configuration = SimulatorConfiguration()
        configuration.signingKey = Self.sharedSigningKey
        configure(&configuration)
        simulator = try Simulator(configuration: configuration, clock: clock)
    }

    var configuration: RegStateConfiguration {
        RegStateConfiguration(
            oidc: OIDCConfiguration(issuer: URL(string: "https://idp.regstate.sim")!, clientID: "regstate-cli",
                                    redirectURI: Self.redirect),
            backendURL: URL(string: "https://api.regstate.sim")!,
            nonNativeAccessToken: "agreed-non-native-token")
    }

    /// A service as a fresh app launch would build it: new actor, same store, journal and world.
    func launch(platform: any PlatformService = SystemPlatformService(formFactor: "390x844")) -> RegStateService {
        RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: store, journal: journal, transport: simulator.transport, clock: clock, platform: platform))
    }

    /// Registers alice through the social path to Active H and returns the service.
    func registeredService(email: String = "alice@example.com") async throws -> RegStateService {
        let service = launch()
        #expect(await service.start() == .registrationRequired)
        let url = try await service.beginSocialRegistration()
        let callback = try await simulator.authorize(url, as: email)
        try await service.completeSocialRegistration(callback: callback)
        try await service.confirmRegistration()
        return service
    }

    /// The stored refresh token, read the way the engine reads it.
    func storedRefreshToken() async -> String? {
        await TokenService(store: store, clock: clock).refreshToken()
    }
}

/// Pulls lettered events off one subscription in order.
struct EventTape {
    private var iterator: AsyncStream<RegStateEvent>.Iterator

    init(_ service: RegStateService) async {
        iterator = await service.events().makeAsyncIterator()
    }

    /// The next `count` events' titles ("Active B", "Error E", ...).
    mutating func next(_ count: Int) async -> [String] {
        var titles: [String] = []
        for _ in 0..<count {
            guard let event = await iterator.next() else { break }
            titles.append(event.title)
        }
        return titles
    }

    /// The next event.
    mutating func nextEvent() async -> RegStateEvent? {
        await iterator.next()
    }
}
