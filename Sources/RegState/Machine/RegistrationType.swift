/// How the user proved their email address (the registration design's `registration_type`).
public enum RegistrationType: String, Sendable, Equatable, Codable, CaseIterable {
    /// A social account at the identity provider, through the authorization code flow.
    case social = "SOCIAL"
    /// A one-time code sent to the email address.
    case passwordless = "PASSWORDLESS"
    /// The host app's own sign-in (host mode): the host pushes ID tokens in and renews them.
    case hostSSO = "HOST_SSO"
}

/// The registration method the user chose on the registration page (state **D**).
public enum RegistrationMethod: Sendable, Equatable, Codable {
    /// Social login in the system browser.
    case social
    /// A one-time code sent to `email`.
    case passwordless(email: String)
    /// Sign in on another device (the device authorization grant, RFC 8628): the user approves a short code on a
    /// phone or a laptop with their account at the provider.
    case device

    /// The stored registration type this method produces: the device grant signs in with the user's account at the
    /// provider, so it registers as ``RegistrationType/social``.
    public var registrationType: RegistrationType {
        switch self {
        case .social, .device: .social
        case .passwordless: .passwordless
        }
    }
}
