import Foundation

extension JSONWebToken {
    /// The `iss` claim: who issued the token.
    package var issuer: String? { claims["iss"]?.stringValue }

    /// The `sub` claim: the issuer's stable identifier for the user.
    package var subject: String? { claims["sub"]?.stringValue }

    /// The `aud` claim as a list (RFC 7519 allows one string or an array of strings); empty when it is neither.
    package var audience: [String] {
        switch claims["aud"] {
        case .string(let single): [single]
        case .array(let values): values.compactMap(\.stringValue)
        default: []
        }
    }

    /// The `exp` claim (seconds since 1970) as a date.
    package var expiresAt: Date? { claims["exp"]?.dateValue }

    /// The `iat` claim (seconds since 1970) as a date.
    package var issuedAt: Date? { claims["iat"]?.dateValue }

    /// The `nonce` claim, which ties an ID token to the authorization request that asked for it.
    package var nonce: String? { claims["nonce"]?.stringValue }
}
