import Foundation

/// Which requests carry the session's access token, and which responses mean "the token was rejected"
/// (seed 001's TokenManagementPolicy).
///
/// Only URLs that match a validating URL — same scheme, host and port, and a path under its path — ever see the
/// `Authorization` header; every other request goes out untouched, so a token can never leak to a third party.
public struct TokenPolicy: Sendable {
    /// The URLs whose requests get the token.
    public var validatingURLs: [URL]
    /// Whether a response means the token must be renewed and the request retried (default: HTTP 401).
    public var evaluateTokenRefresh: @Sendable (HTTPResponse) -> Bool
    /// Whether a response means the server ended the session (default: `403` with error `FORCED_LOGOUT`, seed 000).
    public var evaluateForcedLogout: @Sendable (HTTPResponse) -> Bool

    /// Creates a policy.
    public init(validatingURLs: [URL],
                evaluateTokenRefresh: @escaping @Sendable (HTTPResponse) -> Bool = { $0.status == 401 },
                evaluateForcedLogout: @escaping @Sendable (HTTPResponse) -> Bool = TokenPolicy.isForcedLogout) {
        self.validatingURLs = validatingURLs
        self.evaluateTokenRefresh = evaluateTokenRefresh
        self.evaluateForcedLogout = evaluateForcedLogout
    }

    /// `403 {"error": "FORCED_LOGOUT"}`: the registration backend's way of ending a device's session.
    @Sendable public static func isForcedLogout(_ response: HTTPResponse) -> Bool {
        response.status == 403 && response.jsonBody?["error"]?.stringValue == "FORCED_LOGOUT"
    }

    /// Whether `url` is under one of the validating URLs, both normalised first: scheme and host without case, the
    /// effective port, and the path after decoding unreserved escapes and removing dot segments, compared segment by
    /// segment (`/v1` covers `/v1/x`, not `/v10` and not `/v1/../admin`). A path a server could still decode into
    /// another one (`%2F`, `%5C`, `%25`, `..;`) matches nothing; so does any URL that is not `http` or `https`.
    public func matches(_ url: URL) -> Bool {
        guard let target = NormalizedURL(url) else { return false }
        return validatingURLs.contains { base in NormalizedURL(base).map(target.isUnder) ?? false }
    }
}

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

extension RegStateService {
    /// A server rejected `token`: renew once for everyone who saw it rejected and return the new token, or `nil` when
    /// renewal failed.
    ///
    /// The first rejection of a token is journaled as ``MachineEvent/renewalRequested(_:)`` (the one "token expired"
    /// notice, however many requests failed); later ones join the same renewal.
    public func tokenRejected(_ token: String) async -> String? {
        guard case .active(let session) = state, session.activation != .nonNative else { return nil }
        if let current = await tokens.accessToken(), current.token != token, await tokens.isUsable(current.expiresAt) {
            return current.token
        }
        await renew(replacing: token, because: .backendUnauthorized)
        guard let current = await tokens.accessToken(), current.token != token, await tokens.isUsable(current.expiresAt) else {
            return nil
        }
        return current.token
    }
}
