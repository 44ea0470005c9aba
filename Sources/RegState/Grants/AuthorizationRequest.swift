import Foundation

/// One authorization code request in flight: the URL to open and the secrets (`state`, `nonce`, `codeVerifier`)
/// that finish it, kept until the callback arrives; the description shows only the endpoint and the issue time.
package struct AuthorizationRequest: Sendable, Equatable, Codable {
    /// The authorization URL to open in the browser.
    package var url: URL
    /// The `state` sent, which the callback must echo (CSRF protection).
    package var state: String
    /// The `nonce` sent, which the ID token must carry (replay protection).
    package var nonce: String
    /// The PKCE code verifier (RFC 7636), sent with the code at the token endpoint.
    package var codeVerifier: String
    /// The redirect URI sent, which the token request must repeat exactly.
    package var redirectURI: URL
    /// When the request was made, by the client's clock.
    package var issuedAt: Date
    /// When the pushed request's `request_uri` expires (RFC 9126 §2.2 `expires_in` after the push, by the client's
    /// clock); `nil` when the parameters are in ``url`` itself (no push). A URL past this time is dead: the login
    /// begins again rather than sending it. Optional, so that records written before PAR still read.
    package var requestURIExpiresAt: Date?

    /// Creates a request from its parts, each the property of the same name; `requestURIExpiresAt` is when the pushed
    /// `request_uri` in `url` expires, `nil` without a push.
    package init(url: URL, state: String, nonce: String, codeVerifier: String, redirectURI: URL, issuedAt: Date,
                requestURIExpiresAt: Date? = nil) {
        self.url = url
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.redirectURI = redirectURI
        self.issuedAt = issuedAt
        self.requestURIExpiresAt = requestURIExpiresAt
    }

    /// Whether ``url`` is a pushed request's and its `request_uri` has expired at `now`.
    package func isURLExpired(at now: Date) -> Bool {
        guard let requestURIExpiresAt else { return false }
        return now >= requestURIExpiresAt
    }
}

extension AuthorizationRequest: RedactedDescription {
    /// The endpoint without its query, and the issue time; never the state, nonce or verifier.
    package var description: String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        return "AuthorizationRequest(\(components?.string ?? "<url>"), issuedAt: \(issuedAt), secrets redacted)"
    }
}
