import Foundation

/// The error mapping: what the provider, the backend and the stores throw, as the **F** reason a user can act on.
extension RegistrationFailure {
    /// The reason for a provider error.
    init(_ error: OIDCError) {
        self = switch error {
        // One rule for a network condition, the renewal's (TransientIssue(_:)): one reason code wherever it is met.
        case .transport(let transport): .transient(TransientIssue(error), detail: transport.errorDescription ?? "unreachable")
        case .server(let status): .transient(TransientIssue(error), detail: "HTTP \(status)")
        case .notTheProvider(let status):
            .transient(TransientIssue(error), detail: "HTTP \(status) from a web page, not the sign-in service")
        case .unexplainedRefusal: .tokenRequestFailed(error: error.refusalReason, description: nil)
        case .unexpectedStatus(let status): .malformedResponse("unexpected HTTP \(status)")
        case .oauth(let code, let description, _): .tokenRequestFailed(error: code, description: description)
        case .malformedResponse(let reason): .malformedResponse(reason)
        case .issuerMismatch(let expected, let found): .discoveryFailed("issuer \(found) is not \(expected)")
        case .unsupported(let what): .unsupported(what)
        case .invalidIDToken(.authTimeMissing): .authTimeMissing
        case .invalidIDToken(.authenticationTooOld(let date)): .signInTooOld(authenticatedAt: date)
        case .invalidIDToken(.acrNotAccepted(let acr)): .acrNotAccepted(acr)
        case .invalidIDToken(let reason): .invalidIDToken(reason.errorDescription ?? "\(reason)")
        case .insecureURL(let what): .discoveryFailed("not https: \(what)")
        case .rateLimited(let seconds): .rateLimited(retryAfter: seconds)
        case .grantNotOffered(let grant): .grantNotOffered(grant)
        case .pushedAuthorizationRefused(let code, let description, let status):
            .pushedAuthorizationRefused(error: code ?? "HTTP \(status) without an error body", description: description)
        case .pushedAuthorizationUnavailable(let reason): .pushedAuthorizationUnavailable(reason)
        case .crypto(let crypto): .storage(crypto.errorDescription ?? "crypto")
        case .dpop(let dpop): .dpop(dpop)
        }
    }

    /// The reason for a backend error: the device and token limits are their own reasons; a transient one (no answer,
    /// 5xx, 429) is the network condition the renewal would report for it (``TransientIssue``).
    init(_ error: BackendError) {
        self = switch error {
        case .tooManyRegisteredDevices: .tooManyRegisteredDevices
        case .maxSecurityTokens: .maxSecurityTokens
        case _ where error.isTransient: .transient(TransientIssue(error), detail: error.errorDescription ?? "backend")
        default: .backendFailed(error.errorDescription ?? "backend")
        }
    }

    /// The reason for a store that could not be locked, read or written.
    init(_ error: StoreError) {
        self = .storage(error.errorDescription ?? "store")
    }
}
