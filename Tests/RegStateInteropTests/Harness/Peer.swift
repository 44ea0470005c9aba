#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState
import RegStateTestSupport
import Testing

/// Which real OpenID provider an interop test runs against.
enum PeerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// django-oauth-toolkit (Python), `Tests/Peers/django-oauth-toolkit`: ``InteropPeer``.
    case django
    /// Glewlwyd (C, Debian's package), `Tests/Peers/glewlwyd`: ``GlewlwydPeer``.
    case glewlwyd
    /// idpyoidc (Python, IdentityPython's library under Flask), `Tests/Peers/idpyoidc`: ``IdpyoidcPeer``.
    case idpyoidc

    var testDescription: String { rawValue }

    /// The providers this run covers: those named in `REGSTATE_INTEROP_PEERS` (comma-separated: `django`, `glewlwyd`,
    /// `idpyoidc`), every one when it is unset. A test of another provider is skipped, also under `CI=true`.
    static let selected: Set<PeerKind> = {
        guard let names = ProcessInfo.processInfo.environment["REGSTATE_INTEROP_PEERS"], !names.isEmpty else {
            return Set(allCases)
        }
        return Set(names.split(separator: ",").compactMap { PeerKind(rawValue: $0.trimmingCharacters(in: .whitespaces)) })
    }()
}

/// The knobs the peers understand (each maps them to its own environment variables); a knob a peer lacks is ignored
/// by it, and a test that depends on such a knob runs against the peers that have it.
struct PeerKnobs: Sendable, Equatable {
    /// The access-token lifetime in seconds (`OIDC_AT_TTL` / `GLW_AT_TTL` / `IDPY_AT_TTL`).
    var accessTokenLifetime: Int?
    /// django only (`OIDC_RT_GRACE`): how long a just-rotated refresh token may still be presented.
    var refreshGrace: Int?
    /// Glewlwyd (`GLW_RT_TTL`, default 14 days) and idpyoidc (`IDPY_RT_TTL`, default a day): the refresh-token
    /// lifetime in seconds.
    var refreshTokenLifetime: Int?
    /// Glewlwyd (`GLW_SIGNING`: ID and access tokens) and idpyoidc (`IDPY_SIGNING`: the public client's ID tokens):
    /// `RS256` (default) or `ES256`.
    var signing: String?
    /// Glewlwyd only (`start.sh --nonce`): DPoP nonces are mandatory.
    var dpopNonce = false
    /// Pushed authorization requests: Glewlwyd (`GLW_PAR`) `off`, `allowed` (its default) or `required`; idpyoidc
    /// (`IDPY_PAR`) offers them with `allowed` or `required`, and not by default.
    var pushedAuthorization: String?
    /// Glewlwyd (`GLW_PAR_TTL`) and idpyoidc (`IDPY_PAR_TTL`): the seconds a pushed `request_uri` lives (default 90).
    var pushedRequestLifetime: Int?
    /// Glewlwyd (`GLW_DEVICE_TTL`, default 600) and django (`OIDC_DEVICE_TTL`, default 1800): the seconds a device
    /// code lives.
    var deviceCodeLifetime: Int?
    /// Glewlwyd only (`GLW_REDIRECT_URIS`): more redirect URIs for the clients. Glewlwyd compares a loopback URI's
    /// port exactly, so a test whose listener takes a port of its own registers it here (django accepts any port).
    var redirectURIs: [URL] = []
    /// Glewlwyd only (`GLW_END_SESSION=on`): discovery lists the RP-initiated logout endpoint.
    var endSession = false
    /// idpyoidc only (`IDPY_DPOP=on`): DPoP is offered, and proofs are required at its token and userinfo endpoints
    /// (Glewlwyd offers DPoP always).
    var dpop = false
    /// idpyoidc only (`IDPY_THREADED=on`): a thread per connection (requests still one at a time), so a real browser's
    /// idle connections do not hold the server.
    var threaded = false
}

/// The provider's own record of refresh tokens, read from its database: how many were ever issued and how many are
/// revoked (django: `revoked` set; Glewlwyd: `gpor_enabled = 0`). Each successful refresh adds one and retires its
/// predecessor; reuse detection retires the whole family.
struct RefreshTokenLedger: Equatable, CustomStringConvertible {
    var issued: Int
    var revoked: Int
    var description: String { "\(issued) issued, \(revoked) revoked" }
}

/// One running real provider, started for one test or one suite and always stopped after it (``withPeer(_:_:_:)``,
/// ``SuitePeers``).
///
/// The library and CLI tests are written against this protocol and run once per ``PeerKind``; what only one peer
/// can do (django's revocation endpoint and reuse grace, Glewlwyd's ES256 signing) is tested on that peer's type.
protocol Peer: AnyObject, Sendable {
    /// Which provider this is.
    var kind: PeerKind { get }
    /// The issuer identifier, exactly as discovery states it.
    var issuer: URL { get }
    /// The authorization endpoint discovery names (the CLI prints URLs starting with it).
    var authorizationEndpoint: URL { get }
    /// The public client the provisioning registers (PKCE S256 required, no secret).
    var clientID: String { get }
    /// The custom-scheme redirect URI the provisioning registers (RFC 8252 §7.1 form).
    var customSchemeRedirect: URL { get }
    /// A loopback redirect URI the provisioning registers.
    var loopbackRedirect: URL { get }
    /// The seeded user's email address.
    var aliceEmail: String { get }
    /// Whether the ID token says the email address is verified (Glewlwyd sends no `email_verified`).
    var aliceEmailVerified: Bool { get }
    /// The reason RegState journals when this provider refuses a retired or revoked refresh token: django's
    /// `invalid_grant`; Glewlwyd's bare 400, seen twice; idpyoidc's `invalid_request` (where RFC 6749 §5.2 says
    /// `invalid_grant`).
    var refusalReason: String { get }
    /// Whether the provider has an RFC 7009 revocation endpoint.
    var supportsRevocation: Bool { get }
    /// Authorization parameters the app adds at this provider
    /// (``OIDCConfiguration/additionalAuthorizationParameters``): idpyoidc needs `prompt=consent` for `offline_access`.
    var authorizationParameters: [String: String] { get }
    /// Whether discovery offers pushed authorization requests (RFC 9126) in this provisioning: the library then
    /// pushes (``PushedAuthorizationMode/whenOffered``) and the browser's URL carries `client_id` and `request_uri`.
    var offersPushedAuthorization: Bool { get }
    /// The seeded user's `sub` (Glewlwyd makes one at the first grant).
    func aliceSubject() async throws -> String
    /// Plays alice at the provider for `authorizationURL` and returns the callback URL.
    func login(_ authorizationURL: URL) async throws -> URL
    /// Kills the provider (SIGKILL); its state stays for ``restart()``.
    func terminate() async
    /// Starts the provider again on the same port with the same state (tokens and signing keys).
    func restart() async throws
    /// Freezes the provider (SIGSTOP): connections are accepted but never answered.
    func pause()
    /// Lets a paused provider run again (SIGCONT).
    func resume()
    /// Kills the provider and removes its state directory.
    func stop() async
    /// The provider's refresh-token ledger.
    func refreshTokenLedger() async throws -> RefreshTokenLedger
    /// Whether the provider holds `refreshToken` as revoked (`true`), live (`false`) or not at all (`nil`).
    func isRevoked(refreshToken: String) async throws -> Bool?
}

extension Peer {
    /// Waits (30 s at most) until the provider has issued `count` refresh tokens, and returns its ledger.
    ///
    /// For a request the provider had not answered when the client gave up: it is processed once the provider runs
    /// again, and this wait makes the order of that and the client's retry deterministic.
    func waitForLedger(issued count: Int) async throws -> RefreshTokenLedger {
        let deadline = ContinuousClock.now + .seconds(30)
        var ledger = try await refreshTokenLedger()
        while ledger.issued < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            ledger = try await refreshTokenLedger()
        }
        return ledger
    }
}

/// Process and database helpers the peers share.
enum PeerProcess {
    /// Whether `pid` is a live process (a zombie counts as gone).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    /// SIGKILLs `pid` and waits (10 s at most) until it is gone.
    ///
    /// SIGKILL, not SIGTERM: a child of the test process inherits its blocked signal mask, SIGTERM included, so the
    /// provider would never see a SIGTERM. SQLite rolls back whatever a kill interrupts.
    static func killAndWait(_ pid: pid_t) async {
        guard pid > 0, isRunning(pid) else { return }
        _ = kill(pid, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        while isRunning(pid), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A loopback port nobody listens on right now: bind port 0 and read back what the kernel chose.
    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw InteropError.providerUnavailable("socket() failed") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketFD, generic, length) == 0 && getsockname(socketFD, generic, &length) == 0
            }
        }
        guard bound else { throw InteropError.providerUnavailable("no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The first row of `sql` (with `arguments` bound) in the SQLite database at `database`, its columns as text,
    /// read with `python3` (which every start script needs anyway).
    static func query(_ database: URL, _ sql: String, _ arguments: [String] = []) async throws -> [String] {
        let program = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=20)
            row = db.execute(sys.argv[2], sys.argv[3:]).fetchone()
            print(*(row or ()), sep="\\n")
            """
        let output = try await ChildProcess.run("/usr/bin/env", ["python3", "-c", program, database.path, sql] + arguments,
                                                timeout: .seconds(30))
        guard output.status == 0 else { throw InteropError.scriptFailed("sqlite query: \(output.stderr.suffix(500))") }
        return output.stdout.split(separator: "\n").map(String.init)
    }
}
