#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState
import RegStateTestSupport

/// One running idpyoidc provider (IdentityPython's OpenID provider library under Flask), started by the repository's
/// kit (`Tests/Peers/idpyoidc/start.sh PORT STATE_DIR`) on a free loopback port with its own state directory.
///
/// Its habits differ from the other two peers', which is the point: a `sub` hashed from the user and a salt; an ID
/// token whose `aud` is a list; `iss` in every authorization response (RFC 9207) although discovery does not say so;
/// `offline_access` refused without `prompt=consent` (OIDC Core §11, enforced to the letter); a retired refresh token
/// refused with `invalid_request` where RFC 6749 §5.2 says `invalid_grant`, and no reuse detection. The kit keeps the
/// sessions in its state directory, so ``restart()`` keeps every live token, and writes a ledger of refresh tokens
/// (`ledger.sqlite3`) for ``refreshTokenLedger()``.
final class IdpyoidcPeer: Peer {
    /// The public client (ID tokens RS256, or `IDPY_SIGNING`).
    static let publicClientID = "swift-test-client"
    /// A second public client whose ID tokens are always ES256.
    static let es256ClientID = "swift-test-es256"

    let port: Int
    /// The state directory: keys, `sessions.json`, `ledger.sqlite3`, `server.log` (every refusal's reason).
    let stateDirectory: URL
    let knobs: PeerKnobs
    private let pid: LockedValue<pid_t>

    var kind: PeerKind { .idpyoidc }
    var issuer: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var authorizationEndpoint: URL { issuer.appendingPathComponent("authorization") }
    var clientID: String { Self.publicClientID }
    var customSchemeRedirect: URL { URL(string: "com.example.app:/callback")! }
    var loopbackRedirect: URL { URL(string: "http://127.0.0.1:8765/callback")! }
    var aliceEmail: String { "alice@example.org" }
    var aliceEmailVerified: Bool { true }
    var refusalReason: String { "invalid_request" }
    var supportsRevocation: Bool { true }
    var offersPushedAuthorization: Bool { Self.pushes(knobs) }
    /// OIDC Core §11: "When offline access is requested, a prompt parameter value of consent MUST be used"; idpyoidc
    /// refuses the request otherwise (``IdpyoidcInteropTests``), so the app asks for consent, as configuration.
    var authorizationParameters: [String: String] { ["prompt": "consent"] }
    private var ledger: URL { stateDirectory.appendingPathComponent("ledger.sqlite3") }

    private init(_ started: PeerKit.Started, knobs: PeerKnobs) {
        port = started.port
        stateDirectory = started.stateDirectory
        self.knobs = knobs
        pid = LockedValue(started.pid)
    }

    /// The kit: `Tests/Peers/idpyoidc`.
    static let kit = PeerKit.idpyoidc

    private static func pushes(_ knobs: PeerKnobs) -> Bool {
        knobs.pushedAuthorization == "allowed" || knobs.pushedAuthorization == "required"
    }

    private static func environment(_ knobs: PeerKnobs) -> [String: String] {
        var environment: [String: String] = [:]
        if let lifetime = knobs.accessTokenLifetime { environment["IDPY_AT_TTL"] = String(lifetime) }
        if let lifetime = knobs.refreshTokenLifetime { environment["IDPY_RT_TTL"] = String(lifetime) }
        if let signing = knobs.signing { environment["IDPY_SIGNING"] = signing }
        if knobs.dpop { environment["IDPY_DPOP"] = "on" }
        if knobs.threaded { environment["IDPY_THREADED"] = "on" }
        if pushes(knobs) { environment["IDPY_PAR"] = "on" }
        if let lifetime = knobs.pushedRequestLifetime { environment["IDPY_PAR_TTL"] = String(lifetime) }
        return environment
    }

    // MARK: Lifecycle

    /// Starts idpyoidc on a free port; retries on another port if the first attempt loses a race for it.
    ///
    /// - Throws: ``InteropError/providerUnavailable(_:)`` with start.sh's explanation.
    static func start(knobs: PeerKnobs) async throws -> IdpyoidcPeer {
        let started = try await kit.start(environment: environment(knobs)) { stderr in
            stderr.contains("Address already in use") || stderr.contains("no answer from")
        }
        return IdpyoidcPeer(started, knobs: knobs)
    }

    func stop() async {
        await terminate()
        try? FileManager.default.removeItem(at: stateDirectory)
    }

    func terminate() async {
        await PeerProcess.killAndWait(pid.withLock { $0 })
    }

    /// start.sh again with the same state directory: the same keys and sessions.
    func restart() async throws {
        let output = try await ChildProcess.run("/bin/bash", [try Self.kit.script("start.sh"), String(port), stateDirectory.path],
                                                environment: Self.environment(knobs), timeout: .seconds(60))
        guard output.status == 0, let pid = pid_t(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw InteropError.providerUnavailable("restart: start.sh exited \(output.status): \(output.stderr.suffix(1_500))")
        }
        self.pid.withLock { $0 = pid }
    }

    func pause() {
        _ = kill(pid.withLock { $0 }, SIGSTOP)
    }

    func resume() {
        _ = kill(pid.withLock { $0 }, SIGCONT)
    }

    // MARK: Playing the user and looking inside

    /// Plays alice with `login.py` (the venv's python): opens the URL, fills the login form, returns the callback.
    func login(_ authorizationURL: URL) async throws -> URL {
        try await login(authorizationURL, user: "alice", password: "alice-password")
    }

    /// Plays `user` at the login form for `authorizationURL` and returns the callback URL.
    ///
    /// - Throws: ``InteropError/scriptFailed(_:)`` with the provider's answer when no callback comes (a refusal).
    func login(_ authorizationURL: URL, user: String, password: String) async throws -> URL {
        let output = try await ChildProcess.run(
            Self.kit.python, [try Self.kit.script("login.py"), "--user", user, "--password", password,
                              authorizationURL.absoluteString], timeout: .seconds(30))
        let text = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.status == 0, !text.isEmpty, let callback = URL(string: text) else {
            throw InteropError.scriptFailed("login.py exited \(output.status): \(output.stderr.suffix(500))")
        }
        return callback
    }

    /// idpyoidc hashes the `sub` from the user and a salt; the kit's ledger records the one each grant carried.
    func aliceSubject() async throws -> String {
        let row = try await PeerProcess.query(ledger, "select sub from subject where username = 'alice'")
        guard let subject = row.first, !subject.isEmpty else { throw InteropError.scriptFailed("alice has no sub yet") }
        return subject
    }

    /// The kit's ledger: one row per refresh token idpyoidc issued, `revoked` as idpyoidc holds it.
    func refreshTokenLedger() async throws -> RefreshTokenLedger {
        let numbers = try await PeerProcess.query(
            ledger, "select count(*), coalesce(sum(revoked), 0) from refresh_token").compactMap { Int($0) }
        guard numbers.count == 2 else { throw InteropError.scriptFailed("unexpected ledger answer \(numbers)") }
        return RefreshTokenLedger(issued: numbers[0], revoked: numbers[1])
    }

    func isRevoked(refreshToken: String) async throws -> Bool? {
        let hash = SystemCrypto().sha256(Data(refreshToken.utf8)).map { String(format: "%02x", $0) }.joined()
        let row = try await PeerProcess.query(ledger, "select revoked from refresh_token where token_sha256 = ?", [hash])
        guard let revoked = row.first.flatMap({ Int($0) }) else { return nil }
        return revoked == 1
    }
}

extension PeerKnobs {
    /// idpyoidc with its PAR endpoint on (`IDPY_PAR=on`).
    static let idpyoidcPAR = PeerKnobs(pushedAuthorization: "allowed")
    /// idpyoidc with its DPoP add-on on the token and userinfo endpoints (`IDPY_DPOP=on`).
    static let idpyoidcDPoP = PeerKnobs(dpop: true)
}
