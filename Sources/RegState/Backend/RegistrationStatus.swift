import Foundation

/// The backend's view of the user (`GET /v1/registration`): registered or not, and the profile it holds.
public struct RegistrationStatus: Sendable, Equatable {
    /// Whether the backend holds a confirmed profile.
    public var registered: Bool
    /// The profile the backend holds, when registered.
    public var profile: BackendProfile?

    /// Creates a status.
    public init(registered: Bool, profile: BackendProfile?) {
        self.registered = registered
        self.profile = profile
    }
}

/// A profile as the backend stores it (`{"sub", "email", "name", "registration_type"}`).
public struct BackendProfile: Sendable, Equatable {
    /// The provider's subject.
    public var subject: String
    /// The email address.
    public var email: String?
    /// The display name.
    public var name: String?
    /// How the user registered, when the backend's value is one RegState knows.
    public var registrationType: RegistrationType?

    /// Creates a backend profile.
    public init(subject: String, email: String?, name: String?, registrationType: RegistrationType?) {
        self.subject = subject
        self.email = email
        self.name = name
        self.registrationType = registrationType
    }
}
