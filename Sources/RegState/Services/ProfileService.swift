import Foundation

/// Prepares the user's profile from ID-token claims (the registration design's "Prepare Profile from JWT"), only
/// reading them: the OIDC client validated the token before (OIDC Core 3.1.3.7).
package struct ProfileService: Sendable {
    package init() {}

    /// The profile the claims describe: `sub`, `iss`, `email`, `email_verified` (a Boolean or the string `"true"`),
    /// `name` (else `preferred_username`, else `nickname`) and `picture`; empty strings count as absent. Without a
    /// string `sub` or `iss`: ``ProfileError/missingClaim(_:)``.
    package func profile(fromClaims claims: [String: JSONValue]) throws(ProfileError) -> Profile {
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { throw .missingClaim("sub") }
        guard let issuer = claims["iss"]?.stringValue, !issuer.isEmpty else { throw .missingClaim("iss") }
        func text(_ name: String) -> String? {
            guard let value = claims[name]?.stringValue, !value.isEmpty else { return nil }
            return value
        }
        let verified: Bool = switch claims["email_verified"] {
        case .bool(let value): value
        case .string(let value): value.lowercased() == "true"  // some providers send a string
        default: false
        }
        return Profile(subject: subject, issuer: issuer, email: text("email"), emailVerified: verified,
                       name: text("name") ?? text("preferred_username") ?? text("nickname"), picture: text("picture"))
    }

    /// The profile in a compact JWT (``JSONWebToken``'s strict reading), its signature not verified: for tokens
    /// already validated and stored. ``ProfileError/malformedToken`` when it is not a JWT.
    package func profile(fromIDToken compact: String) throws(ProfileError) -> Profile {
        guard let token = try? JSONWebToken(compact: compact) else { throw .malformedToken }
        return try profile(fromClaims: token.claims)
    }
}

/// Why a profile could not be prepared.
package enum ProfileError: Error, Sendable, Equatable {
    /// A required claim is missing.
    case missingClaim(String)
    /// The ID token is not a readable JWT.
    case malformedToken
}

extension ProfileError: LocalizedError {
    package var errorDescription: String? {
        switch self {
        case .missingClaim(let claim): "The identity token has no '\(claim)' claim."
        case .malformedToken: "The identity token cannot be read."
        }
    }
}
