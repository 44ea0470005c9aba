import Foundation

/// Work the transition function asks the shell to do, whose results come back as ``MachineEvent``s. It carries its
/// inputs, secrets included: from the public call through ``SecretInput``, never through the shell or the journal.
package enum Effect: Sendable, Equatable {
    /// Store the agreed non-native token, then report ``MachineEvent/nonNativeTokenInstalled``.
    case installNonNativeToken
    /// Read the stored credentials and check their expiry, then report ``MachineEvent/storedTokensInspected(_:)``.
    case inspectStoredTokens
    /// Renew the token of `kind` that replaces the stale one (self mode; `nil`: whatever is stored, even if just
    /// renewed), then report its success or failure: the one renewal effect for every token kind.
    case renew(TokenCarrier, replacing: String?)
    /// Run one step of a login grant (start it, finish it with what the user handed in, or exchange the host's ID
    /// token), then report what it answered: waiting for the user, tokens, or the failure with its reason.
    case runGrant(GrantStep)
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

extension Effect: RedactedDescription {
    /// The effect's case with its secrets redacted, for logs, test failures and `dump`.
    package var description: String {
        switch self {
        case .installNonNativeToken: "installNonNativeToken"
        case .inspectStoredTokens: "inspectStoredTokens"
        case .renew(let kind, let stale): "renew(\(kind.rawValue), replacing: \(stale == nil ? "nil" : "redacted"))"
        case .runGrant(let step): "runGrant(\(step))"
        case .confirmRegistration: "confirmRegistration"
        case .discardPendingAuthorization: "discardPendingAuthorization"
        case .clearProvisionalTokens: "clearProvisionalTokens"
        case .clearAllTokens: "clearAllTokens"
        case .clearEverything: "clearEverything"
        case .logout: "logout"
        case .emit(let event): "emit(\(event.title))"
        }
    }
}
