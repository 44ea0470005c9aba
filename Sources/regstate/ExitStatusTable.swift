/// What each command's exit statuses mean: the one table that each command's `--help`, the tool's `--help` and the
/// CLI guide (docs/CLI.md) print (`ExitStatusDocumentationTests` keeps the guide's copy equal to it, and checks each
/// status against runs of the built tool).
///
/// The rule behind it: **0 means the command did what it was asked**, 3 means there was no session to act on
/// (registration required, **D**), 1 an error or a refusal that changed nothing, 2 bad usage. For the commands that
/// report a session (walkthrough, status, update-token, notify-transient) "did what it was asked" means a session is
/// active. `logout` exits 0 once it has logged out (the revocation's outcome is printed, and a provider without
/// revocation is not an error of the logout); `clear-state` exits 0 whenever it has wiped the local state, which it
/// always does, also when the backend could not be told (that is printed, and in `--json` as `installation`). Every
/// command exits 1 when its store cannot be used.
enum ExitStatusTable {
    /// One status and what it means for a command.
    struct Row: Sendable, Equatable {
        /// The exit status.
        let status: Int32
        /// What it means, in a few words.
        let meaning: String
    }

    /// The statuses `command` can exit with, in the order 0, 3, 1, 2.
    static func rows(for command: Command) -> [Row] {
        let specific: [(Int32, String)] = switch command {
        case .walkthrough: [
            (0, "a session is active (A/B/C/H)"),
            (3, "quit at registration (D) or confirmation (G)"),
            (1, "quit after an error, or the input ended first"),
        ]
        case .status: [
            (0, "a session is active (A/B/C/H; also offline after a recoverable E)"),
            (3, "registration required (D, or G awaiting confirmation)"),
            (1, "settled in an error"),
        ]
        case .events: [(0, "the journal was printed"), (1, "the journal cannot be read")]
        case .logout: [
            (0, "logged out (what happened to the refresh token is printed)"),
            (3, "nothing to log out: no session is active"),
            (1, "refused while offline (nothing changed) or failed"),
        ]
        case .clearState: [
            (0, "local state wiped, in every case (the backend's answer is printed)"),
            (1, "the store cannot be used"),
        ]
        case .devices: [
            (0, "listed or removed"),
            (3, "no session: nothing to authenticate with"),
            (1, "refused or unreachable (unknown device, offline, no backend)"),
        ]
        case .ongoingAccess: [
            (0, "done"),
            (3, "no token stored, or consent needed (--no-auto-recover)"),
            (1, "refused or failed"),
        ]
        case .call: [(0, "a 2xx answer"), (3, "no session is active"), (1, "any other answer, or the call failed")]
        case .updateToken: [(0, "a session is active"), (1, "token refused (invalid, device or token limit, offline)")]
        case .deviceLogin: [
            (0, "a session is active (H, or one was already)"),
            (3, "the input ended while the sign-in waits (kept for the next run)"),
            (1, "it ended without a session (denied, expired, not offered, refused)"),
        ]
        case .stepUp: [
            (0, "stepped up: the new tokens replaced the session's"),
            (3, "no session is active, or the input ended first (the session is unchanged)"),
            (1, "refused (another user, the provider did not meet it) or failed; the session is unchanged"),
        ]
        case .notifyTransient: [
            (0, "the session is kept, offline"),
            (3, "no session is active"),
            (1, "refused, or the store cannot be used"),
        ]
        }
        let usage = switch command {
        case .call: "bad usage, or no backend is configured"
        case .updateToken: "bad usage, or no token on standard input"
        default: "bad usage"
        }
        return specific.map { Row(status: $0.0, meaning: $0.1) } + [Row(status: 2, meaning: usage)]
    }

    /// The `Exit status:` line of `command --help`.
    static func line(for command: Command) -> String {
        "Exit status: " + rows(for: command).map { "\($0.status) \($0.meaning)" }.joined(separator: "; ") + "."
    }

    /// The table in the CLI guide (docs/CLI.md) and the tool's `--help`: one line per command.
    static var lines: [String] {
        Command.allCases.map { command in
            "  \(command.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0))"
                + rows(for: command).filter { $0.status != 2 }.map { "\($0.status) \($0.meaning)" }.joined(separator: "; ")
        }
    }
}
