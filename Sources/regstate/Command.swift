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
    /// Wipe local state (and deregister the installation at the backend when online).
    case clearState = "clear-state"
    /// List the user's registered devices (`devices`) or remove one (`devices remove ID`).
    case devices
    /// Consent once, then restore and read data without the user (`authorize` | `fetch`).
    case ongoingAccess = "ongoing-access"
    /// An authorized request to the backend, printed with its outcome.
    case call
    /// Host mode: hand in an ID token read from standard input, as a host app would push it.
    case updateToken = "update-token"
    /// Host mode: the host could not renew for a transient reason (`no-internet` | `sso-unspecified`).
    case notifyTransient = "notify-transient"
    /// Sign in on another device (RFC 8628): show a code, wait for the approval, confirm.
    case deviceLogin = "device-login"
    /// Sign the same user in again, more recently or more strongly, when an API asked for it (RFC 9470).
    case stepUp = "step-up"

    /// Whether the command exists only in host mode (and so implies `--host-mode`).
    var isHostOnly: Bool { self == .updateToken || self == .notifyTransient }
}
