import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator

/// `regstate ongoing-access authorize|fetch`: the ongoing-access design's flow on the simulator's ongoing-access provider, whose world
/// lives in `STORE/simulator` beside the registration simulator's; the token is kept in the store's own record.
enum OngoingAccessCommand {
    /// The store key of the app's own RSA key (PKCS #1 PEM), made on the first run.
    static let appKeyKey = "ongoing-access.app-key"
    /// The `kid` the provider knows the app's key by.
    static let appKeyID = "regstate-cli"

    /// `regstate ongoing-access --help`.
    static let usage = """
        Usage: regstate ongoing-access authorize [--scope-from DATE] [--scope-to DATE] [OPTIONS]
               regstate ongoing-access fetch [--no-auto-recover] [--scope-from DATE] [--scope-to DATE] [OPTIONS]

        authorize  Asks for consent (answer y or n on standard input), then stores the ongoing-access token.
        fetch      Restores access from the stored token without asking (refreshing an expired access token and
                   saying so), lists the accounts and files the scope allows and fetches the first file. When the
                   refresh token has expired it asks for consent again, unless --no-auto-recover is given.
        --scope-from DATE, --scope-to DATE
                   Limit the data to a time range (2026-03-01 or an ISO 8601 instant); fetch uses the authorized
                   scope when none is given.
        --sim-access-ttl and --sim-refresh-ttl set the provider's token lifetimes for tokens issued in this run.
        """

    /// Runs the command and returns the exit status.
    static func run(_ options: CLIOptions, terminal: any Terminal) async -> Int32 {
        let console = Console(terminal: terminal, json: options.json)
        let service: OngoingAccessService
        let tokenStore: OngoingAccessTokenStore
        do {
            (service, tokenStore) = try await makeService(options, console: console)
        } catch let error as UsageError {
            return CLI.usageFailure(error, options.invocation, terminal)
        } catch let error as StoreUnusable {
            terminal.note("regstate: \(error.message).")
            return ExitCode.failure
        } catch {
            console.message("regstate: \(error.localizedDescription)")
            return ExitCode.failure
        }
        let printer = OngoingEventPrinter(console: console)
        let stream = service.events()
        let printing = Task { await printer.consume(stream) }
        defer { printing.cancel() }
        let run = OngoingAccessRun(options: options, service: service, tokenStore: tokenStore, console: console,
                                   printer: printer)
        return options.ongoing.action == .fetch ? await run.fetch() : await run.authorize()
    }

    /// The service on the store and the simulator's ongoing-access provider.
    private static func makeService(_ options: CLIOptions, console: Console) async throws
        -> (OngoingAccessService, OngoingAccessTokenStore)
    {
        let store: FileSecureStore
        do {
            store = try FileSecureStore(directory: options.store.appendingPathComponent("secure", isDirectory: true))
        } catch {
            throw StoreUnusable(path: options.storePath, reason: error.localizedDescription)
        }
        let crypto = SystemCrypto()
        let appKey: RSAPrivateKey
        if let data = try store.data(forKey: appKeyKey) {
            appKey = try RSAPrivateKey(pem: String(decoding: data, as: UTF8.self))
        } else {
            appKey = try crypto.generateRSAPrivateKey(bits: 2048)
            try store.set(Data(appKey.pemEncoded.utf8), forKey: appKeyKey)
        }
        var configuration = OngoingAccessProviderConfiguration()
        configuration.appKeys = [appKeyID: try crypto.publicKey(of: appKey)]
        if let ttl = options.simulator.accessTokenLifetime { configuration.accessTokenLifetime = ttl }
        if let ttl = options.simulator.refreshTokenLifetime { configuration.refreshTokenLifetime = ttl }
        let provider = try OngoingAccessProvider(
            configuration: configuration, persistence: options.store.appendingPathComponent("simulator", isDirectory: true))
        var app = await provider.appConfiguration(appKeyID: appKeyID)
        app.autoRecoverExpiredCredentials = !options.ongoing.noAutoRecover
        let tokenStore = OngoingAccessTokenStore(store: store)
        let transport: any HTTPTransport = options.simulator.offline ? OfflineTransport() : provider.transport
        let dependencies = OngoingAccessDependencies(
            appPrivateKey: appKey, consent: ConsoleConsent(console: console, provider: provider), tokenStore: tokenStore,
            transport: transport, crypto: crypto)
        return (OngoingAccessService(configuration: app, dependencies: dependencies), tokenStore)
    }
}

/// The consent screen as a question on the console; the simulator's provider records the answer.
struct ConsoleConsent: ConsentPresenter {
    /// The user's answer ended the input.
    struct InputEnded: Error {}

    let console: Console
    let provider: OngoingAccessProvider

    func presentConsent(at url: URL, redirectURI: URL) async throws -> URL {
        let app = await provider.configuration.appID
        while true {
            guard let answer = await console.ask("Share your data with \(app) for ongoing access? [y/n] ") else {
                throw InputEnded()
            }
            switch answer.lowercased() {
            case "y", "yes": return try await provider.acceptConsent(url)
            case "n", "no": return try await provider.refuseConsent(url)
            default: console.message("Please answer y or n.")
            }
        }
    }
}

/// `--sim-offline`: every request fails as offline.
struct OfflineTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse { throw .offline }
}

/// Prints ongoing-access events in order and lets the command wait until all emitted ones are out.
actor OngoingEventPrinter {
    private let console: Console
    private var printed = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(console: Console) {
        self.console = console
    }

    /// Waits until every event `service` has emitted so far has been printed.
    func drain(_ service: OngoingAccessService) async {
        let target = await service.emittedEventCount
        guard printed < target else { return }
        await withCheckedContinuation { waiters.append((target, $0)) }
    }

    func consume(_ stream: AsyncStream<OngoingAccessEvent>) async {
        for await event in stream {
            if console.json {
                console.jsonLine(OngoingAccessText.json(event))
            } else {
                console.terminal.line(OngoingAccessText.human(event))
            }
            printed += 1
            let ready = waiters.filter { $0.count <= printed }
            waiters.removeAll { $0.count <= printed }
            for waiter in ready { waiter.continuation.resume() }
        }
    }
}
