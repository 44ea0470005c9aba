import Foundation
import RegState

/// The ongoing-access credential an app keeps between launches (the ongoing-access design's `DMEOAuthToken`): an access token and the
/// refresh token that renews it, each with its expiry.
///
/// ``OngoingAccessService/authorizeOngoingAccess(scope:oAuthToken:)`` may hand back a different token than it was
/// given (an expired access token is refreshed on the way): always replace the stored one with the returned one. The
/// refresh token eventually expires (the provider does not extend it when refreshing); then the user consents again.
/// Its description is redacted.
public struct OAuthToken: Sendable, Equatable, Codable {
    /// The bearer token for data calls.
    public var accessToken: String
    /// When the access token stops working.
    public var accessTokenExpiresAt: Date
    /// The token that obtains new access tokens without the user.
    public var refreshToken: String
    /// When the refresh token stops working; refreshing never moves it.
    public var refreshTokenExpiresAt: Date
    /// The token type, `Bearer`.
    public var tokenType: String

    /// Creates a token.
    public init(accessToken: String, accessTokenExpiresAt: Date, refreshToken: String, refreshTokenExpiresAt: Date,
                tokenType: String = "Bearer") {
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.tokenType = tokenType
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case accessTokenExpiresAt = "access_token_expires_at"
        case refreshToken = "refresh_token"
        case refreshTokenExpiresAt = "refresh_token_expires_at"
        case tokenType = "token_type"
    }
}

extension OAuthToken: RedactedDescription {
    /// Expiries only, never the tokens.
    public var description: String {
        "OAuthToken(access expires \(RecordedTime.text(accessTokenExpiresAt)), "
            + "refresh expires \(RecordedTime.text(refreshTokenExpiresAt)), redacted)"
    }
}
