import Foundation
import RegState

/// The library's real URLSession transport, wrapped to record what goes on the wire: every refresh-token grant (and
/// the refresh token it presents) and every revocation.
///
/// This is what "reaches the provider" from the client's side; ``InteropPeer/refreshTokenLedger()`` is the provider's
/// side of the same story.
final class CountingTransport: HTTPTransport {
    private let base: URLSessionTransport
    private let log = LockedValue(Log())
    /// A timeout that replaces the default for every later request, once a test expects the provider to hang.
    private let timeoutOverride = LockedValue<TimeInterval?>(nil)

    private struct Log {
        var refreshTokensSent: [String] = []
        var revokedTokensSent: [String] = []
        var requests = 0
    }

    /// Wraps a URLSession transport whose requests give up after `timeout` seconds.
    init(timeout: TimeInterval = 10) {
        base = URLSessionTransport(defaultTimeout: timeout)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let form = request.method == .post ? request.formParameters : [:]
        // URL.path drops a trailing slash on Linux and keeps it on Apple platforms: compare without it.
        var path = request.url.path
        while path.hasSuffix("/") { path.removeLast() }
        log.withLock { log in
            log.requests += 1
            if path.hasSuffix("/token"), form["grant_type"] == "refresh_token",
               let token = form["refresh_token"] {
                log.refreshTokensSent.append(token)
            }
            // RFC 7009 endpoints: django's /revoke_token/, idpyoidc's /revocation.
            if path.hasSuffix("/revoke_token") || path.hasSuffix("/revocation"), let token = form["token"] {
                log.revokedTokensSent.append(token)
            }
        }
        var request = request
        if let timeout = timeoutOverride.withLock({ $0 }) { request.timeout = timeout }
        return try await base.send(request)
    }

    /// Makes every later request give up after `timeout` seconds: set after pausing the provider, so the steps
    /// before the outage run with the ordinary timeout.
    func useTimeout(_ timeout: TimeInterval) {
        timeoutOverride.withLock { $0 = timeout }
    }

    /// The refresh tokens presented in refresh-token grants, in order (one entry per grant sent).
    var refreshTokensSent: [String] { log.withLock { $0.refreshTokensSent } }
    /// How many refresh-token grants were sent.
    var refreshGrants: Int { refreshTokensSent.count }
    /// The tokens sent for revocation, in order.
    var revokedTokensSent: [String] { log.withLock { $0.revokedTokensSent } }
    /// How many requests of any kind were sent.
    var requestCount: Int { log.withLock { $0.requests } }
}
