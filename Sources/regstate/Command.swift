/// The commands of the `regstate` tool.
enum Command: String, Sendable, CaseIterable {
    /// Registration step by step (the default).
    case walkthrough
    /// Settle and print the state.
    case status
    /// Print the journal, redacted.
    case events
    /// Revoke the refresh token and clear local data, online only.
    case logout
    /// Wipe local state.
    case clearState = "clear-state"
    /// Consent once, then restore and read data without the user (`authorize` | `fetch`).
    case ongoingAccess = "ongoing-access"
}
