#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState

/// One running Glewlwyd (Debian's C OpenID provider), started by the repository's kit
/// (`Tests/Peers/glewlwyd/start.sh PORT STATE_DIR`) on a free loopback port with a fresh SQLite database.
///
/// Its habits differ from django-oauth-toolkit's, which is the point: a random `sub`, no `email_verified`, a retired
/// refresh token refused with HTTP 400 and an empty body, no revocation endpoint, reuse detection without grace, and
/// ES256 signing on request (`GLW_SIGNING`). start.sh installs `glewlwyd` and `sqlite3` (Scripts/setup.sh) when
/// missing and builds its venv the first time; `login.py` runs with that venv's python.
final class GlewlwydPeer: Peer {
    /// The DPoP-optional public client the provisioning registers.
    static let publicClientID = "swift-test-public"

    let port: Int
    /// The state directory: `glewlwyd.db`, `glewlwyd.conf`, `glewlwyd.log`.
    let stateDirectory: URL
    let knobs: PeerKnobs
    private let pid: LockedValue<pid_t>

    var kind: PeerKind { .glewlwyd }
    var issuer: URL { URL(string: "http://127.0.0.1:\(port)/api/oidc")! }
    var authorizationEndpoint: URL { issuer.appendingPathComponent("auth") }
    var clientID: String { Self.publicClientID }
    var customSchemeRedirect: URL { URL(string: "com.example.app:/callback")! }
    var loopbackRedirect: URL { URL(string: "http://127.0.0.1/callback")! }
    var aliceEmail: String { "alice@example.test" }
    var aliceEmailVerified: Bool { false }
    var refusalReason: String { "HTTP 400 without an error body, twice" }
    var supportsRevocation: Bool { false }
    var offersPushedAuthorization: Bool { knobs.pushedAuthorization != "off" }
    var authorizationParameters: [String: String] { [:] }
    /// The server's log (`GLW_LOGLEVEL=DEBUG` names every refusal's reason).
    var logFile: URL { stateDirectory.appendingPathComponent("glewlwyd.log") }
    private var database: URL { stateDirectory.appendingPathComponent("glewlwyd.db") }

    private init(port: Int, stateDirectory: URL, knobs: PeerKnobs, pid: pid_t) {
        self.port = port
        self.stateDirectory = stateDirectory
        self.knobs = knobs
        self.pid = LockedValue(pid)
    }

    // MARK: Locating the scripts

    /// The kit: `Tests/Peers/glewlwyd`.
    static let kit = PeerKit.glewlwyd

    static func script(_ name: String) throws -> String {
        try kit.script(name)
    }

    /// The Python of the kit's environment (start.sh makes it on first use).
    static var venvPython: String { kit.python }

    private static func environment(_ knobs: PeerKnobs) -> [String: String] {
        var environment = ["GLW_LOGLEVEL": "DEBUG"]
        if let lifetime = knobs.accessTokenLifetime { environment["GLW_AT_TTL"] = String(lifetime) }
        if let lifetime = knobs.refreshTokenLifetime { environment["GLW_RT_TTL"] = String(lifetime) }
        if let signing = knobs.signing { environment["GLW_SIGNING"] = signing }
        if let par = knobs.pushedAuthorization { environment["GLW_PAR"] = par }
        if let lifetime = knobs.pushedRequestLifetime { environment["GLW_PAR_TTL"] = String(lifetime) }
        if let lifetime = knobs.deviceCodeLifetime { environment["GLW_DEVICE_TTL"] = String(lifetime) }
        if !knobs.redirectURIs.isEmpty { environment["GLW_REDIRECT_URIS"] = knobs.redirectURIs.map(\.absoluteString).joined(separator: " ") }
        if knobs.endSession { environment["GLW_END_SESSION"] = "on" }
        return environment
    }

    // MARK: Lifecycle

    /// Starts Glewlwyd on a free port; retries on another port if the first attempt loses a race for it (start.sh
    /// shows the server's log when it exits: a taken port says `bind`).
    ///
    /// - Throws: ``InteropError/providerUnavailable(_:)`` with start.sh's explanation.
    static func start(knobs: PeerKnobs) async throws -> GlewlwydPeer {
        let started = try await kit.start(arguments: knobs.dpopNonce ? ["--nonce"] : [], environment: environment(knobs)) {
            stderr in stderr.contains("bind") || stderr.contains("no answer from")
        }
        return GlewlwydPeer(port: started.port, stateDirectory: started.stateDirectory, knobs: knobs, pid: started.pid)
    }

    func stop() async {
        await terminate()
        try? FileManager.default.removeItem(at: stateDirectory)
    }

    func terminate() async {
        await PeerProcess.killAndWait(pid.withLock { $0 })
    }

    /// Runs the server again on the same configuration and database (start.sh would make a fresh database), and
    /// waits until discovery answers.
    func restart() async throws {
        let config = stateDirectory.appendingPathComponent("glewlwyd.conf").path
        let log = stateDirectory.appendingPathComponent("stdout.log").path
        let output = try await ChildProcess.run(
            "/bin/bash", ["-c", "setsid glewlwyd -c \"$1\" >>\"$2\" 2>&1 </dev/null & echo $!", "restart", config, log],
            timeout: .seconds(10))
        guard output.status == 0, let pid = pid_t(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw InteropError.providerUnavailable("restart: exited \(output.status): \(output.stderr.suffix(500))")
        }
        self.pid.withLock { $0 = pid }
        let discovery = HTTPRequest(method: .get, url: issuer.appendingPathComponent(".well-known/openid-configuration"))
        let transport = URLSessionTransport(defaultTimeout: 2)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let response = try? await transport.send(discovery), response.status == 200 { return }
            guard PeerProcess.isRunning(pid) else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw InteropError.providerUnavailable("restart: discovery did not answer")
    }

    func pause() {
        _ = kill(pid.withLock { $0 }, SIGSTOP)
    }

    func resume() {
        _ = kill(pid.withLock { $0 }, SIGCONT)
    }

    // MARK: Playing the user and looking inside

    /// Plays alice with `login.py` (the venv's python): signs in, grants consent, returns the callback URL.
    func login(_ authorizationURL: URL) async throws -> URL {
        try await login(authorizationURL, arguments: [])
    }

    /// Plays `user` with `login.py` in a session of its own (no browser's): signs in, grants consent, returns the
    /// callback URL, which starts with `redirect` when the URL names no `redirect_uri` (a pushed request).
    func login(_ authorizationURL: URL, user: String, password: String, redirect: URL) async throws -> URL {
        try await login(authorizationURL, arguments: ["--user", user, "--password", password,
                                                      "--redirect-uri", redirect.absoluteString])
    }

    private func login(_ authorizationURL: URL, arguments: [String]) async throws -> URL {
        let output = try await ChildProcess.run(Self.venvPython, [try Self.script("login.py")] + arguments
                                                    + [authorizationURL.absoluteString], timeout: .seconds(30))
        let text = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.status == 0, !text.isEmpty, let callback = URL(string: text) else {
            throw InteropError.scriptFailed("login.py exited \(output.status): \(output.stderr.suffix(500))")
        }
        return callback
    }

    /// Glewlwyd makes a random `sub` per user the first time it issues tokens; read it from the database.
    func aliceSubject() async throws -> String {
        let row = try await PeerProcess.query(
            database, "select gposi_sub from gpo_subject_identifier where gposi_username = 'alice' order by gposi_id")
        guard let subject = row.first, !subject.isEmpty else { throw InteropError.scriptFailed("alice has no sub yet") }
        return subject
    }

    /// Rows of `gpo_refresh_token`: every row an issued refresh token, `gpor_enabled = 0` a retired one.
    func refreshTokenLedger() async throws -> RefreshTokenLedger {
        let numbers = try await PeerProcess.query(
            database, "select count(*), count(*) - coalesce(sum(gpor_enabled), 0) from gpo_refresh_token").compactMap { Int($0) }
        guard numbers.count == 2 else { throw InteropError.scriptFailed("unexpected ledger answer \(numbers)") }
        return RefreshTokenLedger(issued: numbers[0], revoked: numbers[1])
    }

    /// Glewlwyd stores `{SHA512}` + base64(SHA-512(token)) (its `hash_algorithm`).
    func isRevoked(refreshToken: String) async throws -> Bool? {
        let hashed = try await ChildProcess.run("/usr/bin/env", ["python3", "-c", """
            import base64, hashlib, sys
            print("{SHA512}" + base64.b64encode(hashlib.sha512(sys.argv[1].encode()).digest()).decode())
            """, refreshToken], timeout: .seconds(10))
        let hash = hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let row = try await PeerProcess.query(
            database, "select count(*), coalesce(sum(gpor_enabled), 0) from gpo_refresh_token where gpor_token_hash = ?",
            [hash]).compactMap { Int($0) }
        guard row.count == 2, row[0] > 0 else { return nil }
        return row[1] == 0
    }

    /// The server's log so far (`GLW_LOGLEVEL=DEBUG`).
    func logText() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }
}
