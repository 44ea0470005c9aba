import Foundation

/// What a public call hands the transition function beside its event, for the effect, and must never be journaled:
/// the redirect URL (it carries the authorization code), a typed code, the access token a caller found stale.
package enum SecretInput: Sendable, Equatable {
    /// The redirect the browser was sent to, for ``MachineEvent/credentialsSubmitted``.
    case callback(URL)
    /// The code the user typed, for ``MachineEvent/credentialsSubmitted``.
    case code(String)
    /// The access token a caller found expired or rejected, for ``MachineEvent/renewalRequested(_:)``.
    case staleAccessToken(String)
    /// The backend security token a caller found expired or rejected, for ``MachineEvent/renewalRequested(_:)`` of
    /// the security token (self mode; empty when none is stored).
    case staleSecurityToken(String)
    /// The ID token the host app handed in, for ``MachineEvent/hostTokenSubmitted``.
    case idToken(String)
    /// The `prompt` and ``AuthenticationRequirement`` of a social registration, for
    /// ``MachineEvent/registrationRequested(_:)`` (not secrets: they ride here so the effect carries them).
    case socialLogin(prompt: LoginPrompt?, requirement: AuthenticationRequirement?)
    /// What a grant waiting for the user asks them to do, for ``MachineEvent/authorizationIssued``: the machine's
    /// effect announces it (``RegStateEvent/awaitingUser(_:)``); the journal keeps the event without it.
    case deviceVerification(DeviceVerification)
}

extension SecretInput: RedactedDescription {
    /// The kind of input only: the value is a secret.
    package var description: String {
        switch self {
        case .callback: "callback(redacted)"
        case .code: "code(redacted)"
        case .staleAccessToken: "staleAccessToken(redacted)"
        case .staleSecurityToken: "staleSecurityToken(redacted)"
        case .idToken: "idToken(redacted)"
        case .socialLogin(let prompt, let requirement):
            "socialLogin(prompt: \(prompt?.rawValue ?? "none"), maxAge: \(requirement?.maxAge.map(String.init) ?? "none"), "
                + "acrValues: \(requirement?.acrValues ?? []))"
        case .deviceVerification: "deviceVerification(redacted)"
        }
    }
}
