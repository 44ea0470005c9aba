import Foundation
import RegState
import RegStateSimulator

/// The engine wired for one run: on the embedded simulator (its world persisted in the store) or on a real provider.
struct CLIEnvironment: Sendable {
    /// The engine.
    let service: RegStateService
    /// The simulator, when no `--issuer` was given; it plays the user and holds the inbox.
    let simulator: Simulator?
    /// The loopback listener, with `--loopback`.
    let loopback: LoopbackRedirectListener?
    /// Whether the backend steps are skipped (`--issuer` without `--backend`).
    let backendSkipped: Bool

    /// Builds the engine for `options`.
    ///
    /// - Parameter providerTransport: How a real provider (`--issuer`) is reached; URLSession unless a test routes it
    ///   elsewhere (to a simulator, say).
    ///
    /// - Throws: ``UsageError`` when the store cannot be used or the redirect cannot be listened on;
    ///   ``SimulatorError`` when the simulator's world cannot be opened.
    static func make(_ options: CLIOptions, providerTransport: (any HTTPTransport)? = nil) throws -> CLIEnvironment {
        // The store first: opening it creates and checks the directory the simulator's world also lives in.
        var dependencies = try dependencies(at: options.store, transport: providerTransport ?? URLSessionTransport())
        dependencies.platform = options.platform == .web ? FixedPlatformService.web : SystemPlatformService()
        if let issuer = options.issuer, let clientID = options.clientID {
            var redirect = options.redirectURI ?? SimulatorConfiguration.literalURL(CLIOptions.defaultRedirectURI)
            var listener: LoopbackRedirectListener?
            if options.loopback {
                let port = options.redirectURI?.port.flatMap { UInt16(exactly: $0) } ?? 0
                let path = options.redirectURI.map(\.path).flatMap { $0.isEmpty ? nil : $0 } ?? "/callback"
                do {
                    let made = try LoopbackRedirectListener(port: port, path: path)
                    listener = made
                    redirect = made.redirectURI
                } catch {
                    throw UsageError(error.errorDescription ?? "the loopback listener could not start")
                }
            }
            let configuration = RegStateConfiguration(
                oidc: OIDCConfiguration(issuer: issuer, clientID: clientID, redirectURI: redirect,
                                        scopes: options.scopes ?? OIDCConfiguration.defaultScopes),
                backendURL: options.backend)
            return CLIEnvironment(service: RegStateService(configuration: configuration, dependencies: dependencies),
                                  simulator: nil, loopback: listener, backendSkipped: options.backend == nil)
        }
        let knobs = options.simulator
        var simulated = SimulatorConfiguration(isOffline: knobs.offline, refusesRefresh: knobs.denyRefresh)
        if let ttl = knobs.accessTokenLifetime { simulated.accessTokenLifetime = ttl }
        if let ttl = knobs.refreshTokenLifetime { simulated.refreshTokenLifetime = ttl }
        if let grace = knobs.reuseGrace { simulated.refreshReuseGrace = grace }
        if let delay = knobs.answerDelay { simulated.answerDelay = delay }
        simulated.maxDevicesPerUser = knobs.maxDevices
        let clock = knobs.clock
        dependencies.clock = clock
        let simulator = try Simulator(configuration: simulated, clock: clock,
                                      persistence: options.store.appendingPathComponent("simulator", isDirectory: true))
        dependencies.transport = simulator.transport
        // The engine is configured exactly as the simulator is: its issuer, client, first redirect and backend.
        let redirect = SimulatorConfiguration.literalURL(simulated.redirectURIs.first ?? CLIOptions.defaultRedirectURI)
        let configuration = RegStateConfiguration(
            oidc: OIDCConfiguration(issuer: simulated.issuer, clientID: simulated.clientID, redirectURI: redirect,
                                    scopes: options.scopes ?? OIDCConfiguration.defaultScopes),
            backendURL: simulated.backendURL)
        return CLIEnvironment(service: RegStateService(configuration: configuration, dependencies: dependencies),
                              simulator: simulator, loopback: nil, backendSkipped: false)
    }

    private static func dependencies(at store: URL, transport: any HTTPTransport) throws(UsageError) -> RegStateDependencies {
        do {
            return try .onDisk(at: store, transport: transport)
        } catch {
            throw UsageError("cannot use store directory \(store.path) (\(error.localizedDescription))")
        }
    }
}
