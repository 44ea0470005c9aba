/// Work the transition function asks the service to do: effects are values, performed by the actor shell, whose
/// results come back as ``MachineEvent``s.
public enum Effect: Sendable, Equatable {
    /// Store the agreed non-native token, then report ``MachineEvent/nonNativeTokenInstalled``.
    case installNonNativeToken
    /// Read the stored credentials and check their expiry, then report ``MachineEvent/storedTokensInspected(_:)``.
    case inspectStoredTokens
    /// Run (or join) the refresh-token grant, then report its success or failure.
    case renew
    /// Discover the provider and issue an authorization URL with PKCE, state and nonce.
    case startSocialAuthorization
    /// Ask the provider to email a one-time code to `email`.
    case sendPasswordlessCode(email: String)
    /// Check the redirect and exchange its code for tokens.
    case exchangeAuthorizationCode
    /// Verify the one-time code the user typed for `email`.
    case verifyPasswordlessCode(email: String)
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
    /// Deliver a lettered event to every subscriber.
    case emit(RegStateEvent)
}
