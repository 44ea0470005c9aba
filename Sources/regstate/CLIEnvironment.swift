import Foundation
import RegState
import RegStateLoopback
import RegStateSimulator
import RegStateTesting

/// The engine wired for one run: on the embedded simulator (its world persisted in the store) or on a real provider.
struct CLIEnvironment: Sendable {
    /// The engine.
    let service: RegStateService
    /// The simulator, when no `--issuer` was given and the command is the walkthrough or device-login (it plays the
    /// user and holds the inbox). Other commands on the simulator open its world only when they send a request.
    let simulator: Simulator?
    /// The loopback listener, with `--loopback`: one per social login, on one port.
    let loopback: LoopbackSlot?
    /// Whether the backend steps are skipped (`--issuer` without `--backend`).
    let backendSkipped: Bool
    /// The registration backend's URL, when there is one.
    var backendURL: URL?
    /// How the engine reaches the provider and backend (the simulator's in-process transport, or URLSession).
    var transport: any HTTPTransport

    /// Builds the engine for `options`.
    ///
    /// - Parameter providerTransport: How a real provider (`--issuer`) is reached; URLSession unless a test routes it
    ///   elsewhere (to a simulator, say).
    ///
    /// - Throws: ``StoreUnusable`` when the store cannot be used; ``UsageError`` when the redirect cannot be listened
    ///   on; ``SimulatorError`` when the simulator's world cannot be opened.
    static func make(_ options: CLIOptions, providerTransport: (any HTTPTransport)? = nil) throws -> CLIEnvironment {
        // The store first: opening it creates and checks the directory the simulator's world also lives in.
        // URLSession only for a real provider: on the simulator path no networking object is built.
        let real = options.issuer != nil && options.clientID != nil
        let transport: any HTTPTransport = providerTransport ?? (real ? URLSessionTransport() : OfflineTransport())
        var dependencies = try dependencies(at: options.storePath, keychain: options.simulator.keychain, transport: transport)
        dependencies.platform = options.platform == .web ? FixedPlatformService.web : SystemPlatformService()
        if let issuer = options.issuer, let clientID = options.clientID {
            var redirect = options.redirectURI ?? SimulatorConfiguration.literalURL(CLIOptions.defaultRedirectURI)
            var listener: LoopbackSlot?
            if options.loopback {
                let port = options.redirectURI?.port.flatMap { UInt16(exactly: $0) } ?? 0
                let path = options.redirectURI.map(\.path).flatMap { $0.isEmpty ? nil : $0 } ?? "/callback"
                do {
                    let made = try LoopbackSlot(port: port, path: path)
                    listener = made
                    redirect = made.redirectURI
                } catch {
                    throw UsageError(error.errorDescription ?? "the loopback listener could not start")
                }
            }
            var configuration = RegStateConfiguration(
                oidc: OIDCConfiguration(issuer: issuer, clientID: clientID, redirectURI: redirect,
                                        scopes: options.scopes ?? OIDCConfiguration.defaultScopes),
                backendURL: options.backend)
            configuration.sessionSource = options.sessionSource
            configuration.dpop = options.dpop
            configuration.oidc.pushedAuthorization = options.pushedAuthorization
            configuration.oidc.deviceAuthorizationEndpoint = options.deviceAuthorizationEndpoint
            configuration.checksRegistrationAtLaunch = options.registrationCheckSetting
            return CLIEnvironment(service: RegStateService(configuration: configuration, dependencies: dependencies),
                                  simulator: nil, loopback: listener, backendSkipped: options.backend == nil,
                                  backendURL: options.backend, transport: dependencies.transport)
        }
        let knobs = options.simulator
        var simulated = SimulatorConfiguration(isOffline: knobs.offline, refusesRefresh: knobs.denyRefresh)
        if let ttl = knobs.accessTokenLifetime { simulated.accessTokenLifetime = ttl }
        if let ttl = knobs.refreshTokenLifetime { simulated.refreshTokenLifetime = ttl }
        if let grace = knobs.reuseGrace { simulated.refreshReuseGrace = grace }
        if let dpop = knobs.dpop { simulated.dpop = dpop }
        if let stepUp = knobs.stepUp { simulated.stepUp = stepUp }
        if knobs.dpopNonce { simulated.dpopNonce = .required }
        if let par = knobs.pushedAuthorization { simulated.pushedAuthorization = par }
        if let lifetime = knobs.pushedRequestLifetime { simulated.pushedRequestLifetime = lifetime }
        if let delay = knobs.answerDelay { simulated.answerDelay = delay }
        simulated.maxDevicesPerUser = knobs.maxDevices
        let clock = knobs.clock
        dependencies.clock = clock
        let world = PlainPath.appending("simulator", to: options.storePath)
        let lazy = LazySimulator { [simulated] in
            try Simulator(configuration: simulated, clock: clock, persistence: URL(fileURLWithPath: world, isDirectory: true))
        }
        dependencies.transport = lazy.transport
        // Commands that drive the simulator itself (its user, its API knobs) open it now; the others only when a request
        // needs it, so `status` on a usable token never reads the world.
        let simulator = [.walkthrough, .call, .deviceLogin, .stepUp].contains(options.command) ? try lazy.open() : nil
        // The engine is configured exactly as the simulator is: its issuer, client, first redirect and backend.
        let redirect = SimulatorConfiguration.literalURL(simulated.redirectURIs.first ?? CLIOptions.defaultRedirectURI)
        var configuration = RegStateConfiguration(
            oidc: OIDCConfiguration(issuer: simulated.issuer, clientID: simulated.clientID, redirectURI: redirect,
                                    scopes: options.scopes ?? OIDCConfiguration.defaultScopes),
            backendURL: simulated.backendURL)
        configuration.sessionSource = options.sessionSource
        configuration.dpop = options.dpop
        configuration.oidc.pushedAuthorization = options.pushedAuthorization
        configuration.checksRegistrationAtLaunch = options.registrationCheckSetting
        configuration.backendRetiresSecurityTokens = simulated.offersSecurityTokenRetirement
        return CLIEnvironment(service: RegStateService(configuration: configuration, dependencies: dependencies),
                              simulator: simulator, loopback: nil, backendSkipped: false,
                              backendURL: simulated.backendURL, transport: dependencies.transport)
    }

    private static func dependencies(at path: String, keychain: Bool,
                                     transport: any HTTPTransport) throws(StoreUnusable) -> RegStateDependencies {
        do {
            guard keychain else { return try .onDisk(atPath: path, transport: transport) }
            let store = URL(fileURLWithPath: path, isDirectory: true)
            return RegStateDependencies(store: try KeychainDouble.shared(in: store),
                                        journal: try FileJournal(url: store.appendingPathComponent("journal.log")),
                                        transport: transport)
        } catch {
            throw StoreUnusable(path: path, reason: error.localizedDescription)
        }
    }
}
