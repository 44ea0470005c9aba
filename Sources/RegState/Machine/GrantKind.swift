/// A way of signing in, as a failure or a question about one names it (``RegistrationFailure/grantNotOffered(_:)``,
/// ``RegistrationFailure/keepsAttempt(of:)``); what each grant does is its own type's concern.
public enum GrantKind: String, Sendable, Equatable, CaseIterable {
    /// The authorization code grant with PKCE in the system browser (social sign-in).
    case authorizationCode
    /// A one-time code emailed to the user.
    case passwordless
    /// Sign-in approved on another device (RFC 8628).
    case deviceAuthorization

    /// The grant for people, as "does not offer …" ends.
    var offering: String {
        switch self {
        case .authorizationCode: "sign-in in the browser"
        case .passwordless: "sign-in with an emailed code"
        case .deviceAuthorization: "sign-in on another device"
        }
    }

    /// Whether an attempt of this grant waits on after `failure` (the grant's own rule).
    func survives(_ failure: RegistrationFailure) -> Bool {
        switch self {
        case .authorizationCode: AuthorizationCodeGrant.survives(failure)
        case .passwordless: PasswordlessGrant.survives(failure)
        case .deviceAuthorization: false
        }
    }
}
