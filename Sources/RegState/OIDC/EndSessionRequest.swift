import Foundation

/// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): the `end_session_endpoint` URL that ends the
/// provider's session in the browser. It carries the ID token as a hint, to that endpoint only: print ``displayURL``.
public struct EndSessionRequest: Sendable, Equatable {
    /// The URL to open in the browser, `id_token_hint` included. Never print or log it.
    public var url: URL
    /// The same request without `id_token_hint` (the provider may then ask the user to confirm): safe to print.
    public var displayURL: URL

    /// Creates a request from its two URLs.
    public init(url: URL, displayURL: URL) {
        self.url = url
        self.displayURL = displayURL
    }
}

extension EndSessionRequest: RedactedDescription {
    /// The printable URL; never the ID token.
    public var description: String { "EndSessionRequest(\(displayURL.absoluteString))" }
}

extension OIDCClient {
    /// The end-session request for the session whose ID token is `idTokenHint`, or `nil` when the provider's metadata
    /// (discovered already, or now) names no `end_session_endpoint` or cannot be read.
    package func endSessionRequest(idTokenHint: String?) async -> EndSessionRequest? {
        guard let endpoint = try? await metadata().endSessionEndpoint else { return nil }
        var parameters: [(String, String)] = [("client_id", configuration.clientID)]
        if let redirect = configuration.postLogoutRedirectURI {
            parameters.append(("post_logout_redirect_uri", redirect.absoluteString))
        }
        guard let displayURL = Self.url(endpoint, addingQuery: parameters) else { return nil }
        if let idTokenHint { parameters.append(("id_token_hint", idTokenHint)) }
        guard let url = Self.url(endpoint, addingQuery: parameters) else { return nil }
        return EndSessionRequest(url: url, displayURL: displayURL)
    }
}
