import Foundation
import RegState

/// `status`, `events`, `logout` and `clear-state`.
extension CommandRun {
    /// Settles and prints the state with its letter; the exit status follows the settled state.
    func status() async -> Int32 {
        let state = await service.start()
        await drain()
        console.result("State: \(EventText.human(state))")
        return ExitCode.forState(state)
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
            try await service.logout()
            await drain()
            console.result("Logged out: the refresh token was revoked and local credentials were cleared.")
            return ExitCode.success
        } catch let error as LogoutError {
            await drain()
            console.message("Logout refused: \(error.errorDescription ?? "offline, nothing was changed.")")
            return ExitCode.failure
        } catch {
            await drain()
            console.message("Logout failed: \(error.localizedDescription)")
            return ExitCode.failure
        }
    }

    /// Wipes the device's local state and lists what was removed; the simulator's world stays.
    func clearState() async -> Int32 {
        let removed = await service.clearState()
        await drain()
        console.result("Removed: \((removed + ["journal"]).joined(separator: ", ")).")
        return ExitCode.success
    }
}
