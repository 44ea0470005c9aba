import Foundation

/// An ID token that passed validation, with the profile read from its claims.
///
/// Its description is redacted: the token is a credential.
package struct VerifiedIDToken: Sendable, Equatable, RedactedDescription {
    /// The parsed, verified token (claims and the compact serialization to store).
    package let token: JSONWebToken
    /// The profile decoded from the claims.
    package let profile: Profile

    /// Wraps a verified token and its profile.
    package init(token: JSONWebToken, profile: Profile) {
        self.token = token
        self.profile = profile
    }

    /// The subject and issuer; never the token.
    package var description: String { "VerifiedIDToken(sub: \(profile.subject), iss: \(profile.issuer), redacted)" }
}
