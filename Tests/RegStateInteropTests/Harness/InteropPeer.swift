#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegStateTestSupport
import RegState

/// One running django-oauth-toolkit provider, started by the repository's kit (`Tests/Peers/django-oauth-toolkit/start.sh`)
/// on a free loopback port with its own state directory.
///
/// The scripts are called where they are (never copied): the directory is found from the package root. Every test
/// that uses a provider gets its own (``withInteropPeer(_:_:)``), so killing or pausing one disturbs no other test,
/// and ``stop()`` always runs, also when the test fails.
final class InteropPeer: Peer {
    /// The provider's knobs (seconds), passed to start.sh as `OIDC_*` environment variables.
    struct Knobs: Sendable {
        /// `OIDC_AT_TTL`: the access-token lifetime.
        var accessTokenLifetime: Int?
        /// `OIDC_RT_GRACE`: how long a just-rotated refresh token may still be presented.
        var refreshGrace: Int?
        /// `OIDC_DEVICE_TTL`: the seconds a device code lives.
        var deviceCodeLifetime: Int?

        var environment: [String: String] {
            var environment: [String: String] = [:]
            if let accessTokenLifetime { environment["OIDC_AT_TTL"] = String(accessTokenLifetime) }
            if let refreshGrace { environment["OIDC_RT_GRACE"] = String(refreshGrace) }
            if let deviceCodeLifetime { environment["OIDC_DEVICE_TTL"] = String(deviceCodeLifetime) }
            return environment
        }
    }

    /// The public client the provider's seed registers.
    static let clientID = "swift-test-client"
    /// The custom-scheme redirect URI the seed registers (RFC 8252 §7.1 form).
    static let customSchemeRedirect = URL(string: "com.example.app:/callback")!
    /// The loopback redirect URI the seed registers.
    static let loopbackRedirect = URL(string: "http://127.0.0.1:8765/callback")!
    /// The seeded user's `sub`.
    static let aliceSubject = "1"

    var kind: PeerKind { .django }
    var clientID: String { Self.clientID }
    var customSchemeRedirect: URL { Self.customSchemeRedirect }
    var loopbackRedirect: URL { Self.loopbackRedirect }
    var authorizationEndpoint: URL { issuer.appendingPathComponent("authorize") }
    var aliceEmail: String { "alice@example.com" }
    var aliceEmailVerified: Bool { true }
    var refusalReason: String { "invalid_grant" }
    var supportsRevocation: Bool { true }
    var offersPushedAuthorization: Bool { false }
    var authorizationParameters: [String: String] { [:] }
    func aliceSubject() async throws -> String { Self.aliceSubject }

    /// The port the provider listens on.
    let port: Int
    /// The provider's state directory: database, signing key, `server.log`.
    let stateDirectory: URL
    let knobs: Knobs
    private let pid: LockedValue<pid_t>

    /// The issuer identifier, exactly as discovery states it.
    var issuer: URL { URL(string: "http://127.0.0.1:\(port)/o")! }

    private init(port: Int, stateDirectory: URL, knobs: Knobs, pid: pid_t) {
        self.port = port
        self.stateDirectory = stateDirectory
        self.knobs = knobs
        self.pid = LockedValue(pid)
    }

    // MARK: Locating the scripts

    /// The kit: `Tests/Peers/django-oauth-toolkit`.
    static let kit = PeerKit.django

    static func script(_ name: String) throws -> String {
        try kit.script(name)
    }

    // MARK: Lifecycle

    /// Starts a provider on a free port; retries on another port if the first attempt loses a race for it.
    ///
    /// - Throws: ``InteropError/providerUnavailable(_:)`` with start.sh's explanation.
    static func start(knobs: Knobs = Knobs()) async throws -> InteropPeer {
        // Only a lost race for the port is worth another port; a missing python3, curl or PyPI is not.
        let started = try await kit.start(environment: knobs.environment) { stderr in
            stderr.contains("Address already in use") || stderr.contains("no answer from")
        }
        return InteropPeer(port: started.port, stateDirectory: started.stateDirectory, knobs: knobs, pid: started.pid)
    }

    /// Stops the provider (resuming it first if it is paused) and removes its state directory.
    func stop() async {
        await terminate()
        try? FileManager.default.removeItem(at: stateDirectory)
    }

    /// Kills the provider process (SIGKILL), as a crash or an outage would; the state directory stays for
    /// ``restart()``.
    func terminate() async {
        await PeerProcess.killAndWait(pid.withLock { $0 })
    }

    /// Starts the provider again on the same port with the same state (database and signing key), after ``terminate()``.
    ///
    /// - Throws: ``InteropError/providerUnavailable(_:)``.
    func restart() async throws {
        let output = try await ChildProcess.run("/bin/bash", [try Self.script("start.sh"), String(port), stateDirectory.path],
                                                environment: knobs.environment, timeout: .seconds(60))
        guard output.status == 0, let pid = pid_t(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw InteropError.providerUnavailable("restart: start.sh exited \(output.status): \(output.stderr.suffix(1_500))")
        }
        self.pid.withLock { $0 = pid }
    }

    /// Freezes the provider (SIGSTOP): connections are accepted by the kernel but never answered, so clients time out.
    func pause() {
        _ = kill(pid.withLock { $0 }, SIGSTOP)
    }

    /// Lets a paused provider run again (SIGCONT).
    func resume() {
        _ = kill(pid.withLock { $0 }, SIGCONT)
    }

    // MARK: Playing the user and looking inside

    /// Plays alice at the login page for `authorizationURL` (login.sh) and returns the callback URL.
    ///
    /// - Throws: ``InteropError/scriptFailed(_:)`` or ``InteropError/timedOut(_:)``.
    func login(_ authorizationURL: URL) async throws -> URL {
        let output = try await ChildProcess.run("/bin/bash", [try Self.script("login.sh"), authorizationURL.absoluteString],
                                                timeout: .seconds(30))
        let text = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.status == 0, !text.isEmpty, let callback = URL(string: text) else {
            throw InteropError.scriptFailed("login.sh exited \(output.status): \(output.stderr.suffix(500))")
        }
        return callback
    }

    /// Reads ``RefreshTokenLedger`` from the provider's SQLite database (with `python3`, which start.sh needs anyway).
    func refreshTokenLedger() async throws -> RefreshTokenLedger {
        let numbers = try await query("select count(*), count(revoked) from oauth2_provider_refreshtoken")
        guard numbers.count == 2 else { throw InteropError.scriptFailed("unexpected ledger answer \(numbers)") }
        return RefreshTokenLedger(issued: numbers[0], revoked: numbers[1])
    }

    /// Whether the provider holds `refreshToken` as revoked (`true`), live (`false`) or not at all (`nil`).
    func isRevoked(refreshToken: String) async throws -> Bool? {
        let numbers = try await query(
            "select count(*), count(revoked) from oauth2_provider_refreshtoken where token_checksum = ?",
            argument: Self.sha256Hex(refreshToken))
        guard numbers.count == 2, numbers[0] > 0 else { return nil }
        return numbers[1] == numbers[0]
    }

    private func query(_ sql: String, argument: String? = nil) async throws -> [Int] {
        try await PeerProcess.query(stateDirectory.appendingPathComponent("db.sqlite3"), sql, argument.map { [$0] } ?? [])
            .compactMap { Int($0) }
    }

    private static func sha256Hex(_ text: String) -> String {
        SystemCrypto().sha256(Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
