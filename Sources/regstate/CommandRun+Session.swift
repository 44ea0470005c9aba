import Foundation
import RegState

/// `status`, `events`, `logout` and `clear-state`.
extension CommandRun {
    /// Settles and prints the state with its letter; the exit status follows the settled state.
    func status() async -> Int32 {
        let state = await service.start()
        await drain()
        console.result("State: \(EventText.human(state))")
        if case .registrationRequired = state {
            switch await inspected() {
            case .boundElsewhere(let mismatch)?:
                console.result("Reason: \(mismatch.sentence); they were not used and are kept until a new registration"
                               + " or clear-state replaces them.")
            case .corrupt(let reason)?:
                console.result("Reason: \(reason) (damaged, or a time or number out of range); the record was set aside"
                               + " and nothing else was touched.")
            default: break
            }
        }
        await printTokenBinding()
        await printSignIn()
        await printRegistrationCheck()
        return ExitCode.forState(state)
    }

    /// When and how strongly the user signed in (the ID token's `auth_time` and `acr`), when it says; with `--json`,
    /// `{"signed_in_at"?, "signed_in_seconds_ago"?, "acr"?}`.
    private func printSignIn() async {
        guard let assurance = await service.signInAssurance(),
              assurance.authenticatedAt != nil || assurance.acr != nil else { return }
        let now = options.simulator.clock.now()
        var line: [String: JSONValue] = [:]
        var parts: [String] = []
        if let at = assurance.authenticatedAt {
            let seconds = max(0, Int(now.timeIntervalSince(at)))
            parts.append("\(EventText.timestamp(at)) (\(SignInText.ago(seconds)))")
            line["signed_in_at"] = .string(EventText.timestamp(at))
            line["signed_in_seconds_ago"] = .number(Double(seconds))
        }
        if let acr = assurance.acr {
            parts.append("acr \(acr)")
            line["acr"] = .string(acr)
        }
        console.result("Signed in: \(parts.joined(separator: ", "))")
        if options.json { console.jsonLine(.object(line)) }
    }

    /// Whether the session's tokens are DPoP-bound, with the key's thumbprint (never the key); with `--json`, the
    /// same as one JSON line `{"token_binding": "dpop"|"bearer"|"none"|"dpop-key-unavailable", "jkt"?, "reason"?}`.
    private func printTokenBinding() async {
        let binding = await service.tokenBinding()
        guard options.json else {
            if binding != .none { console.result("Token binding: \(binding)") }
            return
        }
        let line: JSONValue = switch binding {
        case .none: ["token_binding": "none"]
        case .bearer: ["token_binding": "bearer"]
        case .dpop(let thumbprint): ["token_binding": "dpop", "jkt": .string(thumbprint)]
        case .dpopKeyUnavailable(let reason): ["token_binding": "dpop-key-unavailable", "reason": .string(reason)]
        }
        console.jsonLine(line)
    }

    /// What the launch's Check Registration found, when it ran: the backend confirmed the access token
    /// and whether the profile changed, or why not. With `--json`, `{"registration_check": "confirmed"|"failed",
    /// "registered"?, "profileChanged"?, "reason"?}`.
    private func printRegistrationCheck() async {
        guard let result = await service.launchRegistrationCheck() else { return }
        switch result {
        case .success(let check):
            let profile = check.profileChanged ? "profile refreshed from the provider" : "profile up to date"
            console.result("Registration check: confirmed by the backend (\(check.registered ? "registered" : "not registered"), \(profile))")
            if options.json {
                console.jsonLine(["registration_check": "confirmed", "registered": .bool(check.registered),
                                  "profileChanged": .bool(check.profileChanged)])
            }
        case .failure(let error):
            console.result("Registration check: not confirmed: \(error.errorDescription ?? "failed")")
            if options.json {
                let reason: String = switch error {
                case .registrationCheck(.noBackend): "no_backend"
                case .registrationCheck(.accessTokenExpired): "access_token_expired"
                case .registrationCheck(.senderConstrainedToken): "sender_constrained_token"
                case .registrationCheck(.subjectMismatch): "subject_mismatch"
                case .backend(let backend): backend.reasonCode
                case .storage: "malformed_response"
                default: "no_session"
                }
                console.jsonLine(["registration_check": "failed", "reason": .string(reason)])
            }
        }
    }

    /// What this launch's inspection found in the store: why it did not use the stored credentials, when it did not
    /// (another issuer or client, or a damaged record).
    private func inspected() async -> StoredTokenStatus? {
        let inspected = (try? await service.journalEntries())?.last { entry in
            if case .storedTokensInspected = entry.event { true } else { false }
        }
        guard case .storedTokensInspected(let status)? = inspected?.event else { return nil }
        return status
    }

    /// Prints the journal, redacted: emails masked, never a token (the journal holds none). Lines that cannot be read
    /// (damaged, a time out of range) are counted on standard error and make the exit status 1.
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
        let unreadable = (try? await service.unreadableJournalEntryCount()) ?? 0
        guard unreadable == 0 else {
            console.message("regstate: \(unreadable) journal line(s) cannot be read (damaged, or a time or number out of "
                            + "range) and are not shown; the rest of the journal is kept.")
            return ExitCode.failure
        }
        return ExitCode.success
    }

    /// Revokes the refresh token and clears local credentials; refuses, changing nothing, while offline. Every line
    /// says what happened: the revocation as ``LogoutResult`` reports it (never "revoked" without a refresh token),
    /// and the provider's browser session only when this login had one.
    func logout() async -> Int32 {
        let state = await service.start()
        await drain()
        guard case .active = state else {
            console.message("Nothing to log out: no session is active (\(EventText.human(state))). \(registerHint)")
            if options.json { console.jsonLine(["result": "logout", "loggedOut": false, "reason": "no_session"]) }
            return ExitCode.registrationRequired
        }
        do {
            let loggedOut = try await service.logout()
            let result = loggedOut.result
            await drain()
            console.result("Logged out: \(result)")
            let endSession = await endProviderSession(loggedOut.endSession)
            if options.json {
                var line = Self.logoutJSON(revocation: result.name, detail: result.detail)
                if case .object(var object) = line, let endSession {
                    object["endSession"] = .string(endSession)
                    line = .object(object)
                }
                console.jsonLine(line)
            }
            return ExitCode.success
        } catch .credentialsRemain(let storeError) {
            await drain()
            console.message("Logout incomplete: \(RegStateServiceError.credentialsRemain(storeError).localizedDescription)")
            if options.json { console.jsonLine(["result": "logout", "loggedOut": false, "reason": "credentialsRemain"]) }
            return ExitCode.failure
        } catch .offline(let issue) {
            await drain()
            console.message("Logout refused: " + (issue == .noInternet
                ? "Logout needs a connection: you are offline, nothing was changed."
                : "Logout needs the sign-in service, which is not answering: nothing was changed."))
            if options.json { console.jsonLine(Self.logoutJSON(revocation: "unreachable", detail: issue.rawValue)) }
            return ExitCode.failure
        } catch {
            await drain()
            console.message("Logout failed: \(error.localizedDescription)")
            if options.json { console.jsonLine(["result": "logout", "loggedOut": false, "reason": "failed"]) }
            return ExitCode.failure
        }
    }

    /// RP-initiated logout after a logout: the simulated browser visits the end-session URL itself; with a real
    /// provider the CLI shows the URL to open, without `id_token_hint` (never printed). Returns `ended`, `failed` or
    /// that URL; `nil` when there is no provider session to end (no end-session endpoint, a passwordless login, a
    /// non-native platform), and then nothing is said about one.
    private func endProviderSession(_ request: EndSessionRequest?) async -> String? {
        guard let request else { return nil }
        if options.issuer == nil {
            let answer = try? await environment.transport.send(HTTPRequest(method: .get, url: request.url))
            guard let answer, answer.status < 400 else {
                console.message("The provider's browser session could not be ended: the next sign-in may sign the"
                                + " same user in again (choose 3 to pick another account).")
                return "failed"
            }
            console.message("The simulated browser opened the provider's end-session URL: it is signed out there, so"
                            + " the next sign-in asks for the user.")
            return "ended"
        }
        console.message("To sign out at the provider too (and pick another account next time), open:")
        console.message(request.displayURL.absoluteString)
        return request.displayURL.absoluteString
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

    /// Wipes the device's local state, lists what was removed and says what happened at the backend (the
    /// installation deregistered, or why it may still be registered); the simulator's world stays. The journal is
    /// listed only when it held entries, and an empty store says so instead of claiming a removal. With `--json`, a
    /// line `{"result":"clear-state","removed":[…],"installation":"deregistered|noBackend|notRegistered|offline|refused",
    /// "detail"?,"credentialsRemain"?}`. Exit 0 when local state was cleared; 1 when the store kept its records (its
    /// lock stayed taken by another process, or a removal failed), with the reason.
    func clearState() async -> Int32 {
        let journaled = ((try? await service.journalEntries()) ?? []).isEmpty == false
        let result = await service.clearState()
        await drain()
        let removed = result.removedKeys + (journaled ? ["journal"] : [])
        if removed.isEmpty {
            console.result("Nothing to remove: no credentials were stored and the journal was empty.")
        } else {
            console.result("Removed: \(removed.joined(separator: ", ")).")
        }
        console.result("Backend: \(result.installation)")
        if let remain = result.credentialsRemain {
            console.result("The stored credentials remain (\(remain.localizedDescription)): run clear-state again.")
        }
        if options.json {
            var line: [String: JSONValue] = ["result": "clear-state", "removed": .array(removed.map { .string($0) }),
                                             "installation": .string(result.installation.name)]
            switch result.installation {
            case .offline(let issue): line["detail"] = .string(issue.rawValue)
            case .refused(let error): line["detail"] = .string(error.reasonCode)
            case .deregistered, .noBackend, .notRegistered: break
            }
            if let remain = result.credentialsRemain { line["credentialsRemain"] = .string(remain.localizedDescription) }
            console.jsonLine(.object(line))
        }
        return result.credentialsRemain == nil ? ExitCode.success : ExitCode.failure
    }
}
