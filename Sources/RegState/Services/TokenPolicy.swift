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

    /// Whether `url` is under one of the validating URLs (scheme, host and port equal; path a prefix at a `/`).
    public func matches(_ url: URL) -> Bool {
        validatingURLs.contains { base in
            guard base.scheme?.lowercased() == url.scheme?.lowercased(),
                  base.host?.lowercased() == url.host?.lowercased(),
                  Self.port(of: base) == Self.port(of: url) else { return false }
            let prefix = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
            return url.path == prefix || url.path.hasPrefix(prefix + "/") || prefix.isEmpty
        }
    }

    private static func port(of url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
