import Foundation
import RegState

/// `status`, `events`, `logout` and `clear-state`.
extension CommandRun {
    /// Settles and prints the state with its letter; the exit status follows the settled state.
    func status() async -> Int32 {
        let state = await service.start()
        await drain()
        console.result("State: \(EventText.human(state))")
        if case .registrationRequired = state, let mismatch = await boundElsewhere() {
            console.result("Reason: \(mismatch.sentence); they were not used and are kept until a new registration"
                           + " or clear-state replaces them.")
        }
        return ExitCode.forState(state)
    }

    /// Why this launch's inspection did not use the stored credentials, when they belong to another issuer or client.
    private func boundElsewhere() async -> CredentialBindingMismatch? {
        let inspected = (try? await service.journalEntries())?.last { entry in
            if case .storedTokensInspected = entry.event { true } else { false }
        }
        guard case .storedTokensInspected(.boundElsewhere(let mismatch))? = inspected?.event else { return nil }
        return mismatch
    }

    /// Prints the journal, redacted: emails masked, never a token (the journal holds none).
    func events() async -> Int32 {
        let entries: [JournalEntry]
        do {
            entries = try await service.journalEntries()
        } catch {
            console.message("regstate: the journal cannot be read (\(error.localizedDescription))")
            return ExitCode.failure
        }
        if entries.isEmpty { console.message("The journal is empty.") }
        for entry in entries {
            if options.json {
                console.jsonLine(JournalText.json(entry))
            } else {
                console.result(JournalText.human(entry))
            }
        }
        return ExitCode.success
    }

    /// Revokes the refresh token and clears local credentials; refuses, changing nothing, while offline.
    func logout() async -> Int32 {
        let state = await service.start()
        await drain()
        guard case .active = state else {
            console.message("Nothing to log out: no session is active (\(EventText.human(state))).")
            return ExitCode.registrationRequired
        }
        do {
            let result = try await service.logout()
            await drain()
            console.result("Logged out: \(result)")
            if options.json { console.jsonLine(Self.logoutJSON(revocation: result.name, detail: result.detail)) }
            return ExitCode.success
        } catch let error as LogoutError {
            await drain()
            console.message("Logout refused: \(error.errorDescription ?? "offline, nothing was changed.")")
            if options.json, case .offline(let issue) = error {
                console.jsonLine(Self.logoutJSON(revocation: "unreachable", detail: issue.rawValue))
            }
            return ExitCode.failure
        } catch {
            await drain()
            console.message("Logout failed: \(error.localizedDescription)")
            return ExitCode.failure
        }
    }

    /// The `--json` line of a logout: `{"result":"logout","loggedOut":…,"revocation":…}` where `revocation` is
    /// `revoked`, `unsupported`, `refused`, `nothingToRevoke` or `unreachable` (then nothing changed), and `detail`
    /// the provider's reason or the transient issue.
    static func logoutJSON(revocation: String, detail: String?) -> JSONValue {
        var object: [String: JSONValue] = ["result": "logout", "loggedOut": .bool(revocation != "unreachable"),
                                           "revocation": .string(revocation)]
        if let detail { object["detail"] = .string(detail) }
        return .object(object)
    }

    /// Wipes the device's local state and lists what was removed; the simulator's world stays.
    func clearState() async -> Int32 {
        let removed = await service.clearState()
        await drain()
        console.result("Removed: \((removed + ["journal"]).joined(separator: ", ")).")
        return ExitCode.success
    }
}
