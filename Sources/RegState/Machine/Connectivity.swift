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
