import Foundation

/// What `regstate ongoing-access` was asked to do.
struct OngoingAccessOptions: Sendable, Equatable {
    /// The two steps of the flow.
    enum Action: String, Sendable, Equatable {
        /// Ask for consent and store the token.
        case authorize
        /// Restore from the stored token, list accounts and files, fetch one.
        case fetch
    }

    /// The action named after `ongoing-access`.
    var action: Action?
    /// `--scope-from DATE`.
    var scopeFrom: Date?
    /// `--scope-to DATE`.
    var scopeTo: Date?
    /// `--no-auto-recover`: an expired refresh token fails instead of asking for consent again.
    var noAutoRecover = false

    /// Whether any ongoing-access option was given.
    var hasOptions: Bool { scopeFrom != nil || scopeTo != nil || noAutoRecover }

    /// Takes `argument` as the action.
    mutating func setAction(_ argument: String) throws(UsageError) {
        guard action == nil else { throw UsageError("unexpected argument '\(argument)'") }
        guard let action = Action(rawValue: argument) else {
            throw UsageError("ongoing-access needs authorize or fetch, not '\(argument)'")
        }
        self.action = action
    }

    /// Reads `--scope-from`/`--scope-to`: a day (`2026-03-01`) or an ISO 8601 instant; `to` days end at 23:59:59.
    mutating func setScope(_ name: String, _ text: String) throws(UsageError) {
        let instant = ISO8601DateFormatter().date(from: text)
        let day = ISO8601DateFormatter().date(from: text + "T00:00:00Z")
        guard let date = instant ?? day else {
            throw UsageError("option \(name) needs a date such as 2026-03-01, not '\(text)'")
        }
        if name == "--scope-from" {
            scopeFrom = date
        } else {
            scopeTo = instant == nil ? date.addingTimeInterval(24 * 3600 - 1) : date
        }
    }

    /// The checks once every argument is read.
    func check(command: Command, issuer: URL?) throws(UsageError) {
        guard command == .ongoingAccess else {
            if hasOptions { throw UsageError("the --scope-* and --no-auto-recover options belong to ongoing-access") }
            return
        }
        guard let action else { throw UsageError("ongoing-access needs authorize or fetch") }
        guard issuer == nil else { throw UsageError("ongoing-access runs on the simulator's ongoing-access provider, not --issuer") }
        if action == .authorize, noAutoRecover { throw UsageError("--no-auto-recover belongs to ongoing-access fetch") }
        if let scopeFrom, let scopeTo, scopeFrom > scopeTo { throw UsageError("--scope-from is after --scope-to") }
    }
}
