import Foundation

/// What Check Registration found: the backend accepted the access token (it asked the provider's userinfo with it)
/// and said whether the user is registered; the profile it picked up belongs to the stored ID token's subject and is
/// now the stored profile.
public struct RegistrationCheck: Sendable, Equatable {
    /// Whether the backend holds a confirmed registration for the user.
    public var registered: Bool
    /// The profile from the provider's userinfo, as now stored (same `sub` as the stored ID token).
    public var profile: Profile
    /// Whether the stored profile changed (email, name): the session's ``Session/profile`` shows it from the next
    /// launch or renewal; until then read it here.
    public var profileChanged: Bool

    /// Creates a result.
    public init(registered: Bool, profile: Profile, profileChanged: Bool) {
        self.registered = registered
        self.profile = profile
        self.profileChanged = profileChanged
    }
}

/// Why Check Registration could not be made or did not confirm the registration, beside no session and the
/// backend's refusal (``RegStateServiceError/noSession``, ``RegStateServiceError/backend(_:)``). In every case nothing
/// stored changed.
public enum RegistrationCheckError: Error, Sendable, Equatable {
    /// No backend is configured: there is nobody to check with.
    case noBackend
    /// The stored access token has expired: renew first (``RegStateService/validAccessToken()`` does).
    case accessTokenExpired
    /// The access token is DPoP-bound (RFC 9449): only this installation can present it, so the backend cannot use
    /// it at the provider's userinfo. It is not sent.
    case senderConstrainedToken
    /// The profile the backend picked up is another user's (`sub` differs from the stored ID token's): a provider or
    /// backend mix-up. Nothing was stored.
    case subjectMismatch
}

extension RegistrationCheckError: LocalizedError {
    /// A sentence for people; never a token or personal data.
    public var errorDescription: String? {
        switch self {
        case .noBackend: "No backend is configured to check the registration with."
        case .accessTokenExpired: "The access token has expired; renew the session first."
        case .senderConstrainedToken: "The access token is bound to this device (DPoP), so the backend cannot check it."
        case .subjectMismatch: "The backend returned another user's profile; nothing was changed."
        }
    }
}

extension HTTPRegistrationBackend {
    /// `GET /v1/check-registration` with the provider's access token as Bearer (``RegistrationBackend``'s Check
    /// Registration) → the same body as `GET /v1/registration`, the profile being the userinfo claims.
    package func checkRegistration(accessToken: String) async throws(BackendError) -> RegistrationStatus {
        let response = try await send(.get, endpoint("/v1/check-registration"), bearer: accessToken)
        return try Self.status(Self.object(of: response, "check registration response"))
    }
}
