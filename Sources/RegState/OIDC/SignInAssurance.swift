import Foundation

/// When and how strongly the session's user signed in, as the provider's ID token says: its `auth_time` and `acr`
/// (OpenID Connect Core §2). Read from the session's stored ID token (the one fact kept), so it holds no secret.
public struct SignInAssurance: Sendable, Equatable, Hashable, Codable {
    /// When the user last actively signed in (`auth_time`); `nil` when the ID token does not say.
    public var authenticatedAt: Date?
    /// The authentication context class the sign-in met (`acr`); `nil` when the ID token does not say.
    public var acr: String?

    /// Creates an assurance from its parts.
    public init(authenticatedAt: Date?, acr: String?) {
        self.authenticatedAt = authenticatedAt
        self.acr = acr
    }

    /// The `auth_time` and `acr` of `token`'s claims (an `auth_time` that is not a sane time reads as absent).
    package init(claimsOf token: JSONWebToken) {
        authenticatedAt = token.claims["auth_time"]?.dateValue
        acr = token.claims["acr"]?.stringValue
    }

    /// The assurance in a stored compact ID token (validated when it arrived); `nil` when it cannot be read.
    init?(idToken: String?) {
        guard let idToken, let token = try? JSONWebToken(compact: idToken) else { return nil }
        self.init(claimsOf: token)
    }

    /// Whether it meets `requirement` at `now` with `leeway` seconds of clock skew: signed in within `max_age` (an
    /// unknown sign-in time does not), and, when the `acr` is required, of one of its values.
    public func meets(_ requirement: AuthenticationRequirement, at now: Date, leeway: TimeInterval = 0) -> Bool {
        if let maxAge = requirement.maxAge {
            guard let authenticatedAt, now.timeIntervalSince(authenticatedAt) <= TimeInterval(max(0, maxAge)) + leeway
            else { return false }
        }
        if requirement.acrRequired, !requirement.acrValues.isEmpty {
            guard let acr, requirement.acrValues.contains(acr) else { return false }
        }
        return true
    }
}
