import Foundation

extension Profile {
    /// Reads a profile from ID token (or userinfo) claims: `sub`, `iss`, `email`, `email_verified`, `name` (else
    /// `preferred_username`, else `nickname`) and `picture`.
    ///
    /// `email_verified` may be a Boolean or the string `"true"` (some providers send strings).
    /// - Returns: `nil` when `sub` or `iss` is missing or empty.
    public init?(claims: [String: JSONValue]) {
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty,
              let issuer = claims["iss"]?.stringValue, !issuer.isEmpty
        else { return nil }
        func text(_ name: String) -> String? {
            guard let value = claims[name]?.stringValue, !value.isEmpty else { return nil }
            return value
        }
        let verified: Bool = switch claims["email_verified"] {
        case .bool(let value): value
        case .string(let value): value.lowercased() == "true"
        default: false
        }
        self.init(subject: subject, issuer: issuer, email: text("email"), emailVerified: verified,
                  name: text("name") ?? text("preferred_username") ?? text("nickname"), picture: text("picture"))
    }
}
