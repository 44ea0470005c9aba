import RegState

/// The exit statuses scripts rely on.
enum ExitCode {
    /// A session is active; the command did what it was asked.
    static let success: Int32 = 0
    /// The engine settled in an error, logout was refused, or the input ended mid-menu.
    static let failure: Int32 = 1
    /// Bad usage.
    static let usage: Int32 = 2
    /// Registration is required (**D**), or there was nothing to log out.
    static let registrationRequired: Int32 = 3

    /// The status a settled state maps to: 0 for A/B/C/H (online or offline), 3 for D (and an unfinished G),
    /// 1 for E/F or a state that never settled.
    static func forState(_ state: RegState) -> Int32 {
        switch state {
        case .active: success
        case .registrationRequired, .awaitingConfirmation: registrationRequired
        case .failed, .unsettled, .authenticating: failure
        }
    }
}
