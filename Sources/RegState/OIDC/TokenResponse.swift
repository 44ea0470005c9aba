import Foundation

/// A successful token endpoint response (RFC 6749 §5.1, OIDC Core §3.1.3.3): what an authorization code, a refresh
/// token or a one-time code bought.
///
/// Its description, debug description and mirror are redacted: every member but the lifetimes is a credential.
package struct TokenResponse: Sendable, Equatable {
    /// The access token.
    package var accessToken: String
    /// The token type: `Bearer` or `DPoP` (see ``parse(_:)`` for how a missing `token_type` is treated).
    package var tokenType: String
    /// Seconds the access token lives, counted from the response, when the provider said.
    package var expiresIn: TimeInterval?
    /// A refresh token, when one was issued (or rotated). `nil` on refresh means "keep the old one".
    package var refreshToken: String?
    /// The ID token (compact JWS), when one was issued.
    package var idToken: String?
    /// The granted scopes, when they differ from the requested ones or the provider always says.
    package var scope: String?
    /// Seconds the refresh token lives, from the non-standard `refresh_expires_in` or `refresh_token_expires_in`.
    package var refreshExpiresIn: TimeInterval?
    /// When the response arrived, by the device clock: the client that received it sets it, and the lifetimes count
    /// from it (not from when the tokens were stored, after the ID token was validated). `nil` for a response made
    /// or parsed by hand.
    package var receivedAt: Date?

    /// Creates a response.
    package init(accessToken: String, tokenType: String = "Bearer", expiresIn: TimeInterval? = nil,
                refreshToken: String? = nil, idToken: String? = nil, scope: String? = nil,
                refreshExpiresIn: TimeInterval? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
        self.refreshExpiresIn = refreshExpiresIn
    }

    /// Whether the token is bound to a DPoP key (`token_type` `DPoP`, RFC 9449 §5).
    package var isDPoPBound: Bool { tokenType == "DPoP" }

    /// The longest access-token lifetime believed: a larger `expires_in` (ten years, say) is clamped to it;
    /// one beyond `RecordedTime`'s range (2^63, 1e308) is refused when the answer is parsed.
    package static let maximumLifetime: TimeInterval = 366 * 86_400

    /// The instant the access token expires, counted from `now` (when the response arrived); a lifetime above
    /// ``maximumLifetime`` is clamped to it.
    package func expiresAt(from now: Date) -> Date? {
        expiresIn.map { RecordedTime.expiry(after: min($0, Self.maximumLifetime), from: now) }
    }
}

extension TokenResponse: RedactedDescription {
    /// Which members are present and the lifetimes, never a token.
    package var description: String {
        var parts = ["accessToken: redacted", "tokenType: \(tokenType)"]
        if let expiresIn { parts.append("expiresIn: \(SecondsText.describe(expiresIn))") }
        if refreshToken != nil { parts.append("refreshToken: redacted") }
        if idToken != nil { parts.append("idToken: redacted") }
        if let scope { parts.append("scope: \(scope)") }
        if let refreshExpiresIn { parts.append("refreshExpiresIn: \(SecondsText.describe(refreshExpiresIn))") }
        return "TokenResponse(\(parts.joined(separator: ", ")))"
    }
}
