import Foundation

/// One step of a login grant, as the machine asks for it (``Effect/runGrant(_:)``). It carries its secrets (the
/// redirect, the typed code, the host's ID token) as values: its description never shows them, it is never journaled.
package enum GrantStep: Sendable, Equatable {
    /// Start the grant of `method` (or, for a grant that is already waiting, announce it again): a new authorization
    /// URL asking for `prompt` and `requirement` (`nil`: the configuration's), a code emailed, or the device
    /// authorization pending in the store taken up or a new one asked for.
    case start(RegistrationMethod, prompt: LoginPrompt?, requirement: AuthenticationRequirement?)
    /// Finish the authorization code grant in progress with the redirect the browser was sent to.
    case redirect(URL)
    /// Finish the emailed-code grant for `email` with the code the user typed.
    case code(String, email: String)
    /// Wait for the approval on another device (the device authorization grant polls).
    case awaitApproval
    /// Validate the host's ID token and exchange it at the backend; `renewing` when a host session is active (a
    /// transient failure then keeps it).
    case hostIDToken(String, renewing: Bool)
}

extension GrantStep: RedactedDescription {
    /// The step's case, with its secrets redacted.
    package var description: String {
        switch self {
        case .start(.social, _, _): "start(social)"
        case .start(.passwordless, _, _): "start(passwordless, email: redacted)"
        case .start(.device, _, _): "start(device)"
        case .redirect: "redirect(redacted)"
        case .code: "code(redacted)"
        case .awaitApproval: "awaitApproval"
        case .hostIDToken: "hostIDToken(redacted)"
        }
    }
}
