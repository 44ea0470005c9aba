import Foundation

/// Why registration or authentication failed: the typed reason of an **Error F**, one case per thing a user or
/// developer would act on differently.
public enum RegistrationFailure: Error, Sendable, Equatable, Codable {
    /// The provider's discovery document could not be fetched or did not describe the configured issuer.
    case discoveryFailed(String)
    /// The provider could not be reached.
    case providerUnreachable(String)
    /// The callback's `state` did not match the pending request (missing, wrong, or a replay).
    case stateMismatch
    /// A callback arrived with no login pending.
    case noPendingLogin
    /// A second login was started while one was pending; the pending one is discarded.
    case loginAlreadyInProgress
    /// The callback was not a redirect this client issued (wrong scheme, host, path, or no `code`).
    case malformedCallback(String)
    /// The callback's RFC 9207 `iss` parameter named another issuer.
    case issuerMismatchInCallback
    /// The provider answered the authorization request with an error (`access_denied`, …) and its description.
    case authorizationDenied(error: String, description: String?)
    /// The token endpoint refused the exchange; `error` is the RFC 6749 code.
    case tokenRequestFailed(error: String, description: String?)
    /// The provider's response could not be understood.
    case malformedResponse(String)
    /// The ID token failed validation (OIDC Core 3.1.3.7); the detail names the check.
    case invalidIDToken(String)
    /// The one-time code was wrong.
    case wrongCode
    /// The one-time code has expired.
    case codeExpired
    /// The one-time code was already used.
    case codeReused
    /// The email address is not usable.
    case invalidEmail
    /// The backend refused a new device: the user has too many registered devices (`403 TOO_MANY_REGISTERED_DEVICES`).
    case tooManyRegisteredDevices
    /// The backend refused a new security token for this device (`403 MAX_NUMBER_SECURITY_TOKEN`).
    case maxSecurityTokens
    /// The backend failed the registration; the detail is its status or error code.
    case backendFailed(String)
    /// The tokens could not be stored.
    case storage(String)
    /// The platform cannot run this method (for example social login on a non-native platform).
    case unsupported(String)
    /// A DPoP step failed (RFC 9449): DPoP required but not offered, a `Bearer` answer when it was required, the key
    /// could not be made or stored, a refused nonce.
    case dpop(DPoPError)
}

extension RegistrationFailure: LocalizedError {
    /// A sentence a user can act on; never contains a token or code.
    public var errorDescription: String? {
        switch self {
        case .discoveryFailed(let detail): "The sign-in service is misconfigured (\(detail))."
        case .providerUnreachable(let detail): "The sign-in service cannot be reached (\(detail)). Try again."
        case .stateMismatch: "The sign-in response did not match this request. Please start again."
        case .noPendingLogin: "No sign-in is in progress. Please start again."
        case .loginAlreadyInProgress: "A sign-in was already in progress; it was cancelled. Please start again."
        case .malformedCallback(let detail): "The sign-in response could not be read (\(detail))."
        case .issuerMismatchInCallback: "The sign-in response came from another service. Please start again."
        case .authorizationDenied(let error, let description):
            "Sign-in was not completed (\(error)\(description.map { ": \($0)" } ?? ""))."
        case .tokenRequestFailed(let error, let description):
            "The sign-in service refused the request (\(error)\(description.map { ": \($0)" } ?? ""))."
        case .malformedResponse(let detail): "The sign-in service sent an unreadable answer (\(detail))."
        case .invalidIDToken(let detail): "The identity token was rejected (\(detail))."
        case .wrongCode: "That code is not right. Check the email and try again."
        case .codeExpired: "That code has expired. Ask for a new one."
        case .codeReused: "That code was already used. Ask for a new one."
        case .invalidEmail: "That email address cannot be used."
        case .tooManyRegisteredDevices: "Too many devices are registered to this account. Remove one and try again."
        case .maxSecurityTokens: "This device has too many open sessions. Sign out elsewhere and try again."
        case .backendFailed(let detail): "Registration could not be completed (\(detail)). Try again."
        case .storage(let detail): "The sign-in could not be saved on this device (\(detail))."
        case .unsupported(let detail): "This sign-in method is not available here (\(detail))."
        case .dpop(let error): error.errorDescription ?? "DPoP failed."
        }
    }
}
