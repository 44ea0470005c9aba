import Foundation

/// The user's profile, decoded from the validated ID token: what the confirmation page (state **G**) shows and what
/// the backend registers.
public struct Profile: Sendable, Equatable {
    /// The provider's stable subject identifier (`sub`).
    public var subject: String
    /// The issuer that vouches for the subject (`iss`).
    public var issuer: String
    /// The email address (`email`), when the provider released it.
    public var email: String?
    /// Whether the provider verified the email address (`email_verified`).
    public var emailVerified: Bool
    /// The display name (`name`, else `preferred_username`).
    public var name: String?
    /// A picture URL (`picture`).
    public var picture: String?

    /// Creates a profile.
    public init(subject: String, issuer: String, email: String? = nil, emailVerified: Bool = false,
                name: String? = nil, picture: String? = nil) {
        self.subject = subject
        self.issuer = issuer
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.picture = picture
    }

    /// The best label for the user: name, else email, else subject.
    public var displayName: String { name ?? email ?? subject }
}
