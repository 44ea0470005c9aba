import Foundation

/// What the host tells RegState about its identity provider, backend and policies.
public struct RegStateConfiguration: Sendable {
    /// The OpenID provider and this app's client registration.
    public var oidc: OIDCConfiguration
    /// The registration backend's base URL; `nil` skips the backend steps (the tokens are confirmed locally).
    public var backendURL: URL?
    /// The agreed access token for non-native platforms (Active **A**).
    public var nonNativeAccessToken: String
    /// Seconds before `expires_at` at which the access token already counts as expired (default 60; at most half the
    /// lifetime the provider granted, so a short-lived token is not renewed at every use).
    public var gracePeriod: TimeInterval
    /// Seconds a launch with stored credentials waits for the provider before it settles offline while the renewal
    /// goes on (default 2; `.infinity`: no timer): <doc:OfflineRules>.
    public var launchBudget: TimeInterval = 2
    /// Who renews the session (default ``SessionSource/selfRenewing``): RegState with the refresh token, or the host
    /// app, which pushes ID tokens in with ``RegStateService/updateToken(idToken:)``.
    public var sessionSource: SessionSource = .selfRenewing
    /// Whether the session's tokens are bound to the installation's DPoP key (RFC 9449); default
    /// ``DPoPMode/whenOffered``: bound whenever the provider's discovery offers ES256 proofs.
    public var dpop: DPoPMode = .whenOffered
    /// Wrong one-time codes one passwordless attempt tolerates (default 5): the next wrong code ends the attempt with
    /// ``RegistrationFailure/tooManyAttempts``. A resend starts the count again; the provider may bound it too.
    public var maxCodeAttempts = 5
    /// Whether ongoing access (`OngoingAccessTokenStore`, in `RegStateOngoingAccess`) outlives the registration
    /// session (default `false`: logout, a forced logout and a final **E** forget its token, which its provider cannot
    /// revoke). ``RegStateService/clearState()`` always removes it.
    public var keepsOngoingAccessAfterSessionEnd = false
    /// Seconds a social login may stay unfinished, kept in the secure store (default 600): its redirect is refused
    /// after that, with ``RegistrationFailure/pendingLoginExpired``.
    public var pendingLoginLifetime: TimeInterval = 600
    /// Whether a launch that settles on a stored session, online, then runs Check Registration
    /// (``RegStateService/checkRegistration()``) in the background: `nil` (the default) when a backend is configured
    /// and RegState renews the session itself; `false` never; `true` also asks for it (still only with a backend). It
    /// never delays the launch's lettered event; ``RegStateService/launchRegistrationCheck()`` waits for it.
    public var checksRegistrationAtLaunch: Bool?
    /// Whether the backend at ``backendURL`` offers `DELETE /v1/security-token` (default `false`): a security token
    /// that a renewal replaces is then retired there, so that it stops counting against the installation's limit.
    /// Without it a replaced token lives at the backend until it expires.
    public var backendRetiresSecurityTokens = false
    /// When a renewal that failed transiently is tried again (``RenewalHoldPolicy``: jittered exponential backoff
    /// shared through the store, `Retry-After` honoured). Not public: the simulation's fleet baseline turns it off.
    package var renewalHoldPolicy: RenewalHoldPolicy = .standard

    /// Creates a configuration.
    public init(oidc: OIDCConfiguration, backendURL: URL? = nil, nonNativeAccessToken: String = "non-native",
                gracePeriod: TimeInterval = 60) {
        self.oidc = oidc
        self.backendURL = backendURL
        self.nonNativeAccessToken = nonNativeAccessToken
        self.gracePeriod = gracePeriod
    }
}
