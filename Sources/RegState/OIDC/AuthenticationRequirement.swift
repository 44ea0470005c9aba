import Foundation

/// How recent and how strong the user's sign-in must be: OpenID Connect's `max_age` and `acr_values` (OIDC Core
/// §3.1.2.1), sent with a login and checked in the ID token it yields (§3.1.3.7 items 12–13; <doc:StepUp>).
public struct AuthenticationRequirement: Sendable, Equatable, Hashable, Codable {
    /// The most seconds since the user last actively signed in (`max_age`); `nil` for no limit. `0` asks for a
    /// sign-in now (the provider must ask again).
    public var maxAge: Int?
    /// The authentication context classes asked for (`acr_values`), in order of preference; empty for none.
    public var acrValues: [String]
    /// Whether the ID token's `acr` must be one of ``acrValues`` (the app, or the API's challenge, needs it).
    public var acrRequired: Bool

    /// No requirement: nothing is sent, nothing more is checked.
    public static let none = AuthenticationRequirement()

    /// Creates a requirement; `acrRequired` applies only when `acrValues` is not empty.
    public init(maxAge: Int? = nil, acrValues: [String] = [], acrRequired: Bool = false) {
        self.maxAge = maxAge
        self.acrValues = acrValues
        self.acrRequired = acrRequired
    }

    /// Whether it asks for nothing.
    public var isEmpty: Bool { maxAge == nil && acrValues.isEmpty }

    /// The authorization request's parameters: `max_age` and `acr_values` (space-separated), those set.
    var parameters: [(String, String)] {
        var parameters: [(String, String)] = []
        if let maxAge { parameters.append(("max_age", String(max(0, maxAge)))) }
        if !acrValues.isEmpty { parameters.append(("acr_values", acrValues.joined(separator: " "))) }
        return parameters
    }
}
