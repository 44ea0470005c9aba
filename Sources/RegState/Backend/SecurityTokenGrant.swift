import Foundation

/// The backend's answer to an ID token: a security token bound to this installation, for the authenticated
/// endpoints.
///
/// The description is redacted: the security token is a bearer credential.
public struct SecurityTokenGrant: Sendable, Equatable, RedactedDescription {
    /// The opaque security token, sent as `Authorization: Bearer`.
    public var securityToken: String
    /// Seconds the security token lives, counted from the response.
    public var expiresIn: TimeInterval
    /// Whether the backend already holds a confirmed profile for the user.
    public var registered: Bool

    /// Creates a grant.
    public init(securityToken: String, expiresIn: TimeInterval, registered: Bool) {
        self.securityToken = securityToken
        self.expiresIn = expiresIn
        self.registered = registered
    }

    /// Lifetime and registration only.
    public var description: String {
        "SecurityTokenGrant(securityToken: redacted, expiresIn: \(SecondsText.describe(expiresIn)), "
            + "registered: \(registered))"
    }
}
