import Foundation

/// What the shared access-token answer (``RegStateService/validAccessToken()``) found: a usable record, whose DPoP
/// key is resolved only by a caller that sends the token, or the credential a renewal returned. Redacted.
enum AccessTokenAnswer: Sendable, RedactedDescription {
    /// The stored record, usable beyond its grace.
    case stored(TokenSnapshot)
    /// The credential the renewal that replaced the stale token returned.
    case renewed(AccessCredential)

    /// The access token.
    var token: String {
        switch self {
        case .stored(let snapshot): snapshot.accessToken
        case .renewed(let credential): credential.token
        }
    }

    /// Redacted: an answer holds a token.
    var description: String {
        switch self {
        case .stored: "AccessTokenAnswer.stored(redacted)"
        case .renewed: "AccessTokenAnswer.renewed(redacted)"
        }
    }
}
