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
