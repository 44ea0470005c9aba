/// How the user proved their email address (the registration design's `registration_type`).
public enum RegistrationType: String, Sendable, Equatable, CaseIterable {
    /// A social account at the identity provider, through the authorization code flow.
    case social = "SOCIAL"
    /// A one-time code sent to the email address.
    case passwordless = "PASSWORDLESS"
    /// The host app's own sign-in (host mode): the host pushes ID tokens in and renews them.
    case hostSSO = "HOST_SSO"
}

/// The registration method the user chose on the registration page (state **D**).
public enum RegistrationMethod: Sendable, Equatable {
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

    /// The grant this method signs in with.
    public var grant: GrantKind {
        switch self {
        case .social: .authorizationCode
        case .passwordless: .passwordless
        case .device: .deviceAuthorization
        }
    }
}

extension RegistrationType {
    /// Whether a sign-in of this type may have left a session at the provider's pages that a logout can end (the
    /// emailed code signs in without the provider's browser session).
    var mayLeaveProviderSession: Bool { self != .passwordless }
}

extension RegistrationMethod {
    /// The method without personal data (the address of an emailed code), for a journal that forgot its user.
    var withoutPersonalData: RegistrationMethod {
        if case .passwordless = self { return .passwordless(email: "") }
        return self
    }

    /// Whether a start of `method` while this one is in progress goes on with it: the same address again (a resend),
    /// or the device sign-in asked for again. Any other start is refused while a login is in progress.
    func startsAgain(as method: RegistrationMethod) -> Bool {
        switch (self, method) {
        case (.passwordless(let pending), .passwordless(let email)): pending == email
        case (.device, .device): true
        default: false
        }
    }

    /// The grant step that finishes this method's attempt with what the user handed in; `nil` when the input is not
    /// this grant's (the device sign-in needs none: the device code is in the secure store, its step polls).
    func step(finishingWith input: SecretInput?) -> GrantStep? {
        switch (self, input) {
        case (.social, .callback(let callback)?): .redirect(callback)
        case (.passwordless(let email), .code(let code)?): .code(code, email: email)
        case (.device, _): .awaitApproval
        default: nil
        }
    }
}
