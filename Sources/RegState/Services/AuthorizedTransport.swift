import Foundation

/// An ``HTTPTransport`` that adds the session's access token to requests the ``TokenPolicy`` matches, and on a
/// response the policy calls a rejection, renews once and retries once.
///
/// However many requests are rejected at the same time, one renewal runs (they all wait for it and are retried with
/// the new token). If renewal fails, or the retried request is rejected again, the original response is returned.
/// A forced logout from the server ends the session (storage cleared, **E** then **D**) and is returned as it came.
///
/// Redirects are followed here, never by `base` (see ``HTTPTransport``): up to five hops, each one a new request
/// that the policy judges afresh, so the token goes to a redirect's target only when the policy lists that URL too,
/// and any `Authorization` the caller set is dropped when the origin changes. A 3xx answer beyond the fifth hop, or
/// without a usable `Location`, is returned as it came.
public struct AuthorizedTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let service: RegStateService
    private let policy: TokenPolicy

    /// Wraps `base`, taking tokens from `service` for the URLs `policy` lists.
    public init(base: any HTTPTransport, service: RegStateService, policy: TokenPolicy) {
        self.base = base
        self.service = service
        self.policy = policy
    }

    /// Sends `request`, authorized when the policy matches it.
    ///
    /// - Throws: ``TransportError`` from `base`; ``RegStateError`` or ``AccessTokenError`` when no usable token can be
    ///   had for a matching request.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var current = request
        var response = try await sendOnce(current)
        for _ in 0..<Redirect.maximumHops {
            guard let next = Redirect.next(after: current, response: response) else { return response }
            current = next
            response = try await sendOnce(current)
        }
        return response
    }

    /// One hop: authorized when the policy matches its URL, renewed and retried once on a rejection.
    private func sendOnce(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard policy.matches(request.url) else { return try await base.send(request) }
        let token = try await service.validAccessToken()
        var authorized = request
        authorized.headers["Authorization"] = "Bearer \(token)"
        let response = try await base.send(authorized)
        if policy.evaluateForcedLogout(response) {
            try? await service.handleForcedLogout()
            return response
        }
        guard policy.evaluateTokenRefresh(response) else { return response }
        guard let renewed = await service.tokenRejected(token), renewed != token else { return response }
        authorized.headers["Authorization"] = "Bearer \(renewed)"
        let retried = try await base.send(authorized)
        if policy.evaluateForcedLogout(retried) { try? await service.handleForcedLogout() }
        return retried
    }
}
