import Foundation

/// Which requests carry a token and which token, and which responses mean "the token was rejected": only URLs under
/// a listed URL ever see the `Authorization` header (<doc:RequestPolicy>).
public struct TokenPolicy: Sendable {
    /// The URLs whose requests get the provider's access token.
    public var validatingURLs: [URL]
    /// The URLs whose requests get the backend security token (the registration backend's API).
    public var securityTokenURLs: [URL]
    /// Whether the response to a request means its token must be renewed and the request retried once (default:
    /// HTTP 401). It gets the request too, so a policy can judge by path or method.
    public var evaluateTokenRefresh: @Sendable (HTTPRequest, HTTPResponse) -> Bool
    /// Whether a response means the server ended the session (default: `403` with error `FORCED_LOGOUT`).
    public var evaluateForcedLogout: @Sendable (HTTPResponse) -> Bool

    /// Creates a policy; each parameter sets the property of its name (by default the security token goes nowhere).
    public init(validatingURLs: [URL], securityTokenURLs: [URL] = [],
                evaluateTokenRefresh: @escaping @Sendable (HTTPRequest, HTTPResponse) -> Bool = { _, response in
                    response.status == 401
                },
                evaluateForcedLogout: @escaping @Sendable (HTTPResponse) -> Bool = TokenPolicy.isForcedLogout) {
        self.validatingURLs = validatingURLs
        self.securityTokenURLs = securityTokenURLs
        self.evaluateTokenRefresh = evaluateTokenRefresh
        self.evaluateForcedLogout = evaluateForcedLogout
    }

    /// The policy of a host-mode app, or of any app whose API is the registration backend: every request under
    /// `backendURL` carries the backend security token, nothing else carries a token.
    public static func backend(_ backendURL: URL) -> TokenPolicy {
        TokenPolicy(validatingURLs: [], securityTokenURLs: [backendURL])
    }

    /// `403 {"error": "FORCED_LOGOUT"}`: the registration backend's way of ending a device's session.
    @Sendable public static func isForcedLogout(_ response: HTTPResponse) -> Bool {
        response.status == 403 && response.jsonBody?["error"]?.stringValue == "FORCED_LOGOUT"
    }

    /// Which token a request to `url` carries, or `nil` when it carries none: both `url` and the listed URLs are
    /// normalised first (<doc:RequestPolicy> says what matches, and what never does).
    public func carrier(for url: URL) -> TokenCarrier? {
        guard let target = NormalizedURL(url) else { return nil }
        func longest(_ bases: [URL]) -> Int? {
            bases.compactMap(NormalizedURL.init).filter(target.isUnder).map(\.segments.count).max()
        }
        switch (longest(validatingURLs), longest(securityTokenURLs)) {
        case (nil, nil): return nil
        case (.some, nil): return .accessToken
        case (nil, .some): return .securityToken
        case (.some(let access), .some(let security)): return access > security ? .accessToken : .securityToken
        }
    }

    /// Whether a request to `url` carries a token at all (see ``carrier(for:)``).
    public func matches(_ url: URL) -> Bool { carrier(for: url) != nil }
}

/// Which token a request carries, as ``TokenPolicy/carrier(for:)`` decides per URL.
public enum TokenCarrier: String, Sendable, Equatable, CaseIterable {
    /// The identity provider's access token (self mode; renewed with the refresh token).
    case accessToken
    /// The registration backend's security token, bound to this installation (both modes).
    case securityToken
}
