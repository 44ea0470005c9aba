import Foundation

/// An ``HTTPTransport`` that adds the session's access token to requests the ``TokenPolicy`` matches, and on a
/// response the policy calls a rejection, renews once and retries once.
///
/// However many requests are rejected at the same time, one renewal runs (they all wait for it and are retried with
/// the new token). If renewal fails, or the retried request is rejected again, the original response is returned.
/// A forced logout from the server ends the session (storage cleared, **E** then **D**) and is returned as it came.
///
/// A DPoP-bound session (RFC 9449) sends `Authorization: DPoP <token>` and a fresh `DPoP` proof (with `ath`, and the
/// origin's latest nonce) on every request it authorizes, never `Bearer`; a `401` asking for a nonce
/// (`WWW-Authenticate: DPoP error="use_dpop_nonce"` with `DPoP-Nonce`) is retried once with it.
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
        let (token, key) = try await service.validAuthorization()
        let response = try await sendAuthorized(request, token: token, key: key)
        if policy.evaluateForcedLogout(response) {
            try? await service.handleForcedLogout()
            return response
        }
        guard policy.evaluateTokenRefresh(response) else { return response }
        guard let renewed = await service.tokenRejected(token), renewed != token else { return response }
        let (current, currentKey) = try await service.validAuthorization()
        let retried = try await sendAuthorized(request, token: current, key: currentKey)
        if policy.evaluateForcedLogout(retried) { try? await service.handleForcedLogout() }
        return retried
    }

    /// Sends `request` with `token`: as `Bearer`, or as `DPoP` with a fresh proof when `key` binds it; a DPoP nonce
    /// challenge is answered once.
    private func sendAuthorized(_ request: HTTPRequest, token: String, key: DPoPKey?) async throws -> HTTPResponse {
        var authorized = request
        guard let key else {
            authorized.headers["Authorization"] = "Bearer \(token)"
            return try await base.send(authorized)
        }
        let dpop = service.dpop
        authorized.headers["Authorization"] = "DPoP \(token)"
        authorized.headers["DPoP"] = try dpop.proof(key: key, method: request.method.rawValue, url: request.url,
                                                    accessToken: token)
        let response = try await base.send(authorized)
        guard try dpop.remember(nonceFrom: response, for: request.url), Self.asksForNonce(response) else {
            return response
        }
        authorized.headers["DPoP"] = try dpop.proof(key: key, method: request.method.rawValue, url: request.url,
                                                    accessToken: token)
        let retried = try await base.send(authorized)
        try dpop.remember(nonceFrom: retried, for: request.url)
        return retried
    }

    /// A `401` whose `WWW-Authenticate` says `use_dpop_nonce` (RFC 9449 §9).
    static func asksForNonce(_ response: HTTPResponse) -> Bool {
        response.status == 401 && (response.header("WWW-Authenticate")?.contains("use_dpop_nonce") ?? false)
    }
}
