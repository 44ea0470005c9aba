/// Why a renewal failed without the provider refusing it: the two reasons the token-lifecycle rules give
/// `notifyTokenRenewalTransientIssue`, so the host can tell its user what is going on.
public enum TransientIssue: String, Sendable, Equatable, CaseIterable {
    /// No network, a refused connection or a timeout.
    case noInternet
    /// The provider answered, but not with a usable answer (5xx, a malformed response, an unexpected error code).
    case ssoUnspecifiedIssue
}
