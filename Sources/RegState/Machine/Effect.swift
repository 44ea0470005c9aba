import Foundation

/// Work the transition function asks the service to do: effects are values, performed by the actor shell, whose
/// results come back as ``MachineEvent``s.
///
/// An effect carries every input it needs, secrets included (the redirect URL, the one-time code, the stale access
/// token): they travel from the public call through ``SecretInput`` into the effect, never through a field of the
/// shell and never into the journal.
package enum Effect: Sendable, Equatable {
    /// Store the agreed non-native token, then report ``MachineEvent/nonNativeTokenInstalled``.
    case installNonNativeToken
    /// Read the stored credentials and check their expiry, then report ``MachineEvent/storedTokensInspected(_:)``.
    case inspectStoredTokens
    /// Run (or join) the refresh-token grant that replaces `staleAccessToken`, then report its success or failure.
    ///
    /// `nil` renews whatever is stored, even when another caller just renewed it (launch, or the host forcing it).
    case renew(replacing: String?)
    /// Discover the provider and issue an authorization URL with PKCE, state and nonce, asking for `prompt` when
    /// the app did (``LoginPrompt``), and for `requirement` (`max_age`, `acr_values`; `nil`: the configuration's).
    case startSocialAuthorization(prompt: LoginPrompt?, requirement: AuthenticationRequirement?)
    /// Ask the provider to email a one-time code to `email`.
    case sendPasswordlessCode(email: String)
    /// Ask the provider for a device code and a user code (RFC 8628), or take up the one pending in the store, then
    /// report ``MachineEvent/authorizationIssued`` with what to show.
    case startDeviceAuthorization
    /// Poll the token endpoint for the pending device authorization until the user approves, denies or the code
    /// expires; report ``MachineEvent/authenticated(_:)`` or why not.
    case pollDeviceAuthorization
    /// Check the redirect `callback` against the login in progress and exchange its code for tokens.
    case exchangeAuthorizationCode(callback: URL)
    /// Verify the one-time `code` the user typed for `email`.
    case verifyPasswordlessCode(email: String, code: String)
    /// Register the profile and installation with the backend, then confirm the tokens.
    case confirmRegistration
    /// Forget the pending authorization (PKCE verifier, state, nonce), so a late callback is refused.
    case discardPendingAuthorization
    /// Remove provisional tokens.
    case clearProvisionalTokens
    /// Remove all credentials, then report ``MachineEvent/credentialsCleared``.
    case clearAllTokens
    /// Remove all local state (credentials, profile, installation id, journal), then report
    /// ``MachineEvent/credentialsCleared``.
    case clearEverything
    /// Revoke the refresh token at the provider and clear local credentials; report ``MachineEvent/loggedOut`` or
    /// ``MachineEvent/logoutRefused(_:)``.
    case logout
    /// Validate the ID token the host handed in and exchange it at the backend for a security token bound to this
    /// installation; report ``MachineEvent/hostTokenAccepted(_:)`` or why not.
    case exchangeIDToken(String)
    /// Deliver a lettered event to every subscriber.
    case emit(RegStateEvent)
}

extension Effect: CustomStringConvertible, CustomReflectable {
    /// The effect's case with its secrets redacted: the callback URL, the one-time code and the stale access token
    /// never reach a log, a test failure message or `dump`.
    package var description: String {
        switch self {
        case .installNonNativeToken: "installNonNativeToken"
        case .inspectStoredTokens: "inspectStoredTokens"
        case .renew(let stale): "renew(replacing: \(stale == nil ? "nil" : "redacted"))"
        case .startSocialAuthorization: "startSocialAuthorization"
        case .sendPasswordlessCode: "sendPasswordlessCode"
        case .startDeviceAuthorization: "startDeviceAuthorization"
        case .pollDeviceAuthorization: "pollDeviceAuthorization"
        case .exchangeAuthorizationCode: "exchangeAuthorizationCode(callback: redacted)"
        case .verifyPasswordlessCode: "verifyPasswordlessCode(code: redacted)"
        case .confirmRegistration: "confirmRegistration"
        case .discardPendingAuthorization: "discardPendingAuthorization"
        case .clearProvisionalTokens: "clearProvisionalTokens"
        case .clearAllTokens: "clearAllTokens"
        case .clearEverything: "clearEverything"
        case .logout: "logout"
        case .exchangeIDToken: "exchangeIDToken(redacted)"
        case .emit(let event): "emit(\(event.title))"
        }
    }

    /// Reflection shows the redacted description only.
    package var customMirror: Mirror { Mirror(self, children: ["effect": description]) }
}
