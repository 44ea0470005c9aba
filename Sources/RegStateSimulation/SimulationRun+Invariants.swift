import Foundation
import RegState
import RegStateSimulator

/// The invariants. Each is a named check; a violation goes to the ledger with the invariant's name.
extension SimulationRun {
    /// Checked after every action.
    func checkContinuously() async {
        checkNoTornRecord()
        checkRefreshTokenKept()
        if loggedOut { checkNoTokenOnDisk("logout") }
        disk.checkFiles(slots)
        if budgetWatch != nil { await checkLateRenewals() }
        if memoryWatch != nil { await checkRetained() }
        if world == .sharedJournal { checkSharedJournalFile() }
    }

    /// After the heal: every process relaunched from disk, no faults.
    func checkAtEnd() async {
        if let memoryWatch { ledger.note("check memory: at most \(memoryWatch.largest) retained by a process in \(options.steps) steps") }
        checkNoTornRecord()
        if loggedOut { checkNoTokenOnDisk("logout") }
        disk.checkFiles(slots)
        let honoured = await storedSessionIsHonoured()
        for (index, slot) in slots.enumerated() {
            guard let service = slot.service else { continue }
            let state = await service.state
            // issuer-client-binding: a process of another client never takes the world client's session.
            if isAnotherClient(index) {
                if case .active = state {
                    ledger.violation("issuer-client-binding", "p\(slot.incarnation), built for \(Self.anotherClientID), is "
                                     + "\(Self.describe(state)) with the session of the world's client")
                }
                continue
            }
            // session-honoured: a session the provider still honours ends active, and hands out a token.
            if honoured {
                if case .active = state {} else {
                    ledger.violation("session-honoured", "p\(slot.incarnation) ended \(Self.describe(state)) though the provider honours the stored refresh token")
                }
                if (try? await service.validAccessToken().token) == nil {
                    ledger.violation("session-honoured", "p\(slot.incarnation) cannot hand out a token though the provider honours the session")
                }
            }
            await checkLetters(service, incarnation: slot.incarnation)
            await checkJournal(slot, service: service)
        }
        if deviceAudit != nil { await checkDeviceCodeSecret() }
        // renewal-storm: each call may cost at most one grant, plus one retry of an unexplained answer.
        let presentations = ledger.refreshPresentations
        if presentations > 2 * grantCapableCalls {
            ledger.violation("renewal-storm", "\(presentations) refresh grants for \(grantCapableCalls) calls that may renew")
        }
        // renewal-storm, per token lifetime: a renewed token is good for at least half its lifetime (the engine renews
        // at most `lifetime/2` early), so a renewal arriving sooner than that after the previous one must be explained
        // by a call that renews regardless of age, a write that may have lost the previous result, or a second process.
        let arrivals = ledger.deliveredGrants
        let early = zip(arrivals, arrivals.dropFirst()).filter { previous, next in
            let gap = next.timeIntervalSince(previous)
            return gap >= 0 && gap < accessLifetime / 2
        }.count
        let budget = explicitRenewals + ledger.diskMishapCount + slots.count
        if early > budget {
            ledger.violation("renewal-storm", "\(early) of \(arrivals.count) renewals arrived within half the access "
                             + "lifetime (\(Int(accessLifetime))s) of the previous one; explained: \(budget)")
        }
        if world == .dpop { ledger.note("dpop  \(network.dpop.summary)") }
        await checkRejectionCost()
        checkForgeries()
        let open = pendingCalls.open
        if !open.isEmpty { ledger.violation("bounded-wait", "calls never returned: \(open.joined(separator: ", "))") }
    }

    /// Faults off, every pending call waited for, every process relaunched and asked for a token once.
    func heal() async {
        ledger.note("heal  faults off, every process relaunched")
        network.faultPercent = 0
        network.isOffline = false
        disk.writeFailurePercent = 0
        disk.crashPercent = 0
        await simulator.setProviderDown(false)
        // A process the file system killed at a system call is dead: its callers die with it, as a world crash's do
        // (host worlds: one may be waiting for a host answer that went to the dead process; seed 4222503105).
        for slot in slots where !liveness.isAlive(slot.incarnation) { end(slot) }
        await healWorld()
        await awaitPending()
        waitOutBackoff()
        for index in slots.indices { await launch(index, reason: "heal") }
        for slot in slots {
            guard let service = slot.service else { continue }
            if world == .host {
                let outcome = (try? await service.securityToken()) != nil ? "token" : "no token"
                ledger.note("call  p\(slot.incarnation) securityToken -> \(outcome)")
                continue
            }
            grantCapableCalls += 1
            let outcome = (try? await service.validAccessToken().token) != nil ? "token" : "no token"
            ledger.note("call  p\(slot.incarnation) validAccessToken -> \(outcome)")
        }
        await awaitPending()
    }

    /// The heal's time: a transient failure before it left a backoff hold in the store (``RenewalHoldPolicy``), during
    /// which every install answers offline at once; the world waits it out (every install is back within its hold
    /// once the provider is), so the end checks see the session the provider honours.
    func waitOutBackoff() {
        guard let data = disk.peek("credentials"), let record = try? JSONValue.parse(data) else { return }
        let now = clock.now()
        let ends = ["access_token_backoff", "security_token_backoff"].compactMap { key -> Date? in
            guard let until = record[key]?["until"]?.dateValue, let backoff = record[key]?["backoff"]?.numberValue,
                  RenewalHoldPolicy.standard.isHolding(RejectionHold(until: until, backoff: backoff), at: now)
            else { return nil }
            return until
        }
        guard let end = ends.max() else { return }
        ledger.note("heal  waits out the backoff hold (\(Int(end.timeIntervalSince(now).rounded(FloatingPointRoundingRule.up))) s)")
        clock.advance(by: end.timeIntervalSince(now))
    }

    /// Waits for every call, including those started meanwhile (the host's answers during the heal).
    func awaitPending() async {
        while !pending.isEmpty {
            let call = pending.removeFirst()
            await call.task.value
        }
    }

    /// store-atomic: the credentials record on disk is one that some write committed, and the engine never had to
    /// quarantine an unreadable record.
    func checkNoTornRecord() {
        checkStoredIDTokenSubject()
        if let data = disk.peek("credentials"), !disk.wasCommitted(data, under: "credentials") {
            ledger.violation("store-atomic", "the credentials record on disk was never written whole")
        }
        if disk.peek("credentials.unreadable") != nil {
            ledger.violation("store-atomic", "a credentials record was unreadable and quarantined")
        }
    }

    /// refreshed-id-token: no ID token that a refresh answer carried for another subject is ever stored (its
    /// validation refuses it; the session goes on with the answer's rotated refresh token only).
    func checkStoredIDTokenSubject() {
        guard world == .refreshedIDToken, let record = disk.peek("credentials"),
              let idToken = (try? JSONValue.parse(record))?["id_token"]?.stringValue else { return }
        let parts = idToken.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
              (try? JSONValue.parse(payload))?["sub"]?.stringValue == IDTokenDefect.otherSubjectValue else { return }
        ledger.violation("refreshed-id-token", "the stored ID token names another subject than the session's")
    }

    /// refresh-token-kept: a self-renewing session's record on disk always holds a refresh token. Every registration
    /// here gets one (`offline_access`), and a renewal answer without one (a provider that does not rotate its
    /// refresh tokens, a life in seven) keeps the one it was made with: a record without it is a session lost that
    /// the provider still honours, which `session-honoured` cannot see (it asks the provider about the token on disk).
    func checkRefreshTokenKept() {
        guard world != .host, let data = disk.peek("credentials"), let record = try? JSONValue.parse(data),
              record["stage"]?.stringValue == "confirmed", record["access_token"] != nil,
              record["refresh_token"]?.stringValue == nil else { return }
        ledger.violation("refresh-token-kept", "a confirmed session's record on disk holds no refresh token")
    }

    /// Whether the provider would renew with the refresh token on disk now.
    func storedSessionIsHonoured() async -> Bool {
        guard let token = Ledger.refreshToken(in: disk.peek("credentials")) else { return false }
        return await simulator.honours(refreshToken: token)
    }

    /// letters-agree: the latest lettered event (replayed to a new subscriber) is the state's own event; an active
    /// session may have announced a recoverable E since.
    func checkLetters(_ service: RegStateService, incarnation: Int) async {
        let state = await service.state
        guard let expected = state.event else { return }
        // A service that never broadcast has no latest event to replay: waiting for one would hang the check.
        guard await service.emittedEventCount > 0 else {
            ledger.violation("letters-agree", "p\(incarnation) is \(Self.describe(state)) but announced nothing")
            return
        }
        var latest: RegStateEvent?
        for await event in await service.events() { latest = event; break }
        if latest == expected { return }
        if case .active = state, case .error(.renewal(let failure)) = latest, failure.isRecoverable { return }
        // Host mode: a token the host pushed into an active session was refused; the session stays, the host hears why.
        if case .active(let session) = state, session.isHostDriven, case .error(.registration) = latest { return }
        ledger.violation("letters-agree", "p\(incarnation) is \(Self.describe(state)) but its latest event is \(latest?.title ?? "none")")
    }

    /// replay-equals-live, logout-rules and journal-bounded, over the slot's journal.
    func checkJournal(_ slot: ProcessSlot, service: RegStateService) async {
        guard let entries = try? await service.journalEntries() else {
            ledger.violation("replay-equals-live", "p\(slot.incarnation)'s journal cannot be read")
            return
        }
        let lines = disk.journalLineCount(slot)
        if lines > RegStateService.journalCompactionThreshold + 16 {
            ledger.violation("journal-bounded", "p\(slot.incarnation)'s journal holds \(lines) lines")
        }
        // A shared journal holds every process's events: its own invariants, not this process's replay.
        if world == .sharedJournal { return checkSharedJournal(entries, incarnation: slot.incarnation) }
        checkPersonalDataForgotten(entries, incarnation: slot.incarnation)
        // Without a snapshot the journal starts at sequence 1 (or after a clear-state, at its first entry).
        guard lines == entries.count else { return }
        let live = await service.state
        let replayed = JournalEntry.fold(entries)
        var state = RegState.unsettled
        var denials = 0
        defer {
            // A denial is the provider's word: it needs a refusal the provider actually sent — and not one of a token
            // whose rotation's answer was lost (that renewal was interrupted; the record's mark says so).
            // In host worlds the host reports its SSO's refusals (the lifecycle design's ssoDenied logout).
            if denials > ledger.providerRefusals - ledger.refusalsOfInterruptedRenewals + ledger.hostDenialCount {
                ledger.violation("logout-rules", "p\(slot.incarnation) journaled \(denials) denial(s), the provider refused \(ledger.providerRefusals) time(s) (\(ledger.refusalsOfInterruptedRenewals) of them an interrupted renewal's token), the host reported \(ledger.hostDenialCount)")
            }
        }
        var wasActive = false
        var endAllowed = false
        for entry in entries {
            let next = (try? RegStateMachine.transition(from: state, on: entry.event).state) ?? state
            if case .renewalFailed(.denied, _) = entry.event { denials += 1 }
            if Self.mayEndSession(entry.event) { endAllowed = true }
            if Self.isActive(next) {
                wasActive = true
                endAllowed = false
            } else if wasActive, Self.isEnded(next) {
                if !endAllowed {
                    ledger.violation("logout-rules", "p\(slot.incarnation): \(entry.event.name) ended an active session")
                }
                wasActive = false
            }
            state = next
        }
        // Dates compare to the microsecond: the journal stores seconds since 1970 as a Double, and the round trip
        // through `timeIntervalSince1970` loses the last bits of a `Date`.
        if Self.normalized(replayed) != Self.normalized(live) {
            ledger.violation("replay-equals-live", "p\(slot.incarnation): journal folds to \(replayed), live state is \(live)")
        }
    }

    /// personal-data-forgotten: once a session has ended by logout (the history folded into a snapshot of D), or by
    /// a forced logout or a final error (every line redacted), no line the journal keeps from before that end holds
    /// the user's personal data. Lines after it belong to whatever came next (a new registration names its user).
    func checkPersonalDataForgotten(_ entries: [JournalEntry], incarnation: Int) {
        guard let end = entries.lastIndex(where: { $0.event == .loggedOut || $0.event == .credentialsCleared }) else { return }
        let personal = Data(email.utf8)
        for entry in entries[..<end] {
            guard let line = try? entry.encoded(), line.range(of: personal) != nil else { continue }
            return ledger.violation("personal-data-forgotten",
                                    "p\(incarnation)'s journal still names the user in entry \(entry.sequence) (\(entry.event.name)), "
                                        + "before its \(entries[end].event.name) at \(entries[end].sequence)")
        }
    }

    /// A state in which the session is gone: D, or a final error.
    static func isEnded(_ state: RegState) -> Bool {
        switch state {
        case .registrationRequired: true
        case .failed(let error): !error.isRecoverable
        default: false
        }
    }

    static func normalized(_ state: RegState) -> String {
        guard case .active(let session) = state else { return "\(state)" }
        let micros = session.expiresAt.map { Int(($0.timeIntervalSince1970 * 1_000_000).rounded()) }
        return "active \(session.activation) \(session.connectivity) \(String(describing: session.registrationType)) "
            + "\(String(describing: micros)) \(String(describing: session.profile))"
    }

    static func isActive(_ state: RegState) -> Bool {
        if case .active = state { return true }
        return false
    }

    /// Seed 000: the session ends only on the user's logout or clear-state, the backend's forced logout, or the
    /// provider's final answer (refusal, every token expired).
    static func mayEndSession(_ event: MachineEvent) -> Bool {
        switch event {
        case .loggedOut, .forcedLogout, .credentialsCleared, .clearStateRequested: true
        // A launch that finds the store emptied: another process ended the session (checked in that process).
        case .storedTokensInspected: true
        case .renewalFailed(let failure, _): !failure.isRecoverable
        default: false
        }
    }
}
