/// Whether an active session is in touch with the identity provider; offline, it keeps its tokens and data until
/// the next successful renewal brings it back online.
public enum Connectivity: Sendable, Equatable {
    /// The last exchange with the provider succeeded.
    case online
    /// The last renewal failed for a transient reason; data is preserved.
    case offline(TransientIssue)

    /// Whether the session is offline.
    public var isOffline: Bool {
        if case .offline = self { return true }
        return false
    }
}

/// Why a renewal failed without the provider refusing it: the two reasons the token-lifecycle rules give
/// `notifyTokenRenewalTransientIssue`, so the host can tell its user what is going on.
public enum TransientIssue: String, Sendable, Equatable, CaseIterable {
    /// No network, a refused connection or a timeout.
    case noInternet
    /// The provider answered, but not with a usable answer (5xx, a malformed response, an unexpected error code).
    case ssoUnspecifiedIssue
}
