import Foundation
import RegState
import RegStateSimulator

/// The host app of the host world: it answers RegState's renewal notices, pushes ID tokens at launch and on its own,
/// and logs its user out; with the invariants on what RegState tells it (host-told-once, logout-rules).
extension SimulationRun {
    /// RegState told incarnation `incarnation` to renew (E awaitingHost). host-told-once: once per expiry, not
    /// per caller — a second notice with no answer of the host in between is a violation.
    func noticed(_ incarnation: Int) {
        guard host != nil else { return }
        ledger.note("host  told by p\(incarnation): E awaitingHost")
        let count = max(host?.unanswered[incarnation] ?? 0, -1) + 1
        host?.unanswered[incarnation] = count
        if count > 1 {
            ledger.violation("host-told-once", "p\(incarnation) told the host \(count) times with no answer in between")
        }
        if host?.healing == true { answerNotice(incarnation) } else { host?.inbox.append(incarnation) }
    }

    /// The host answers a notice: mostly a fresh token, sometimes the same or a stale one, a transient issue, or its
    /// SSO's denial. During the heal: a fresh token.
    func answerNotice(_ incarnation: Int) {
        guard let index = slots.firstIndex(where: { $0.incarnation == incarnation && $0.service != nil }) else { return }
        let roll = host?.healing == true ? 0 : worldRandom.below(100)
        switch roll {
        case 0..<65: hostPush(index, .fresh, reason: "answering p\(incarnation)")
        case 65..<75: hostPush(index, .same, reason: "answering p\(incarnation)")
        case 75..<85: hostPush(index, .stale, reason: "answering p\(incarnation)")
        case 85..<96: hostTransient(index, reason: "answering p\(incarnation)")
        default: hostDenial(index, reason: "answering p\(incarnation): its SSO refused")
        }
    }

    /// A host-mode process launched: a host whose user is logged in pushes its latest ID token (the token-lifecycle rules: "within
    /// onInitialized when authenticated"), or a fresh one when this process has no session yet.
    func hostOnLaunch(_ index: Int, state: RegState) {
        guard host?.loggedIn == true, worldRandom.chance(70) else { return }
        hostPush(index, state.session == nil ? .fresh : .same, reason: "at launch")
    }

    /// The host answered (or acted for) slot `index`'s current incarnation.
    func hostAnswered(_ index: Int) {
        let incarnation = slots[index].incarnation
        // At most one answer in credit: an answer heard before its notice (seed 4272701393) still pairs with it.
        let balance = host?.unanswered[incarnation] ?? 0
        host?.unanswered[incarnation] = balance > 0 ? 0 : -1
    }

    /// The ID token the host pushes; `nil` when its login failed (the provider is down).
    func hostIDToken(_ kind: HostPush) async -> String? {
        guard let client = host?.client else { return nil }
        switch kind {
        case .same: if let last = host?.idTokens.last { return last }
        case .stale: if let first = host?.idTokens.first { return first }
        case .fresh: break
        }
        do {
            let request = try await client.makeAuthorizationRequest()
            let callback = try await simulator.authorize(request.url, as: email)
            let code = try await client.authorizationCode(from: callback, for: request)
            guard let token = try await client.exchangeCode(code, for: request).idToken else { return nil }
            host?.idTokens.append(token)
            host?.loggedIn = true
            return token
        } catch {
            return nil
        }
    }

    func hostPush(_ index: Int, _ kind: HostPush, reason: String) {
        guard slots[index].service != nil else { return }
        ledger.note("host  pushes a \(kind.rawValue) ID token to slot \(index) (\(reason))")
        hostAnswered(index)
        // A push may start a session: until it ends, tokens may reach the disk again.
        loggedOut = false
        registrationsInFlight += 1
        spawn("updateToken(\(kind.rawValue))", slot: index) { service in
            defer { Task { await self.registrationEnded() } }
            guard let token = await self.hostIDToken(kind) else {
                _ = try? await service.notifyTokenRenewalTransientIssue(.ssoUnspecifiedIssue)
                return "the host's login failed; told transient"
            }
            do {
                return SimulationRun.describe(try await service.updateToken(idToken: token))
            } catch {
                return "refused (\(error))"
            }
        }
    }

    func hostTransient(_ index: Int, reason: String) {
        guard slots[index].service != nil else { return }
        let issue: TransientIssue = worldRandom.chance(50) ? .noInternet : .ssoUnspecifiedIssue
        ledger.note("host  reports a transient issue (\(issue.rawValue)) to slot \(index) (\(reason))")
        hostAnswered(index)
        spawn("notifyTransient", slot: index) { service in
            do {
                try await service.notifyTokenRenewalTransientIssue(issue)
                return "noted"
            } catch {
                return "\(error)"
            }
        }
    }

    /// The host's SSO refused to renew: the token-lifecycle rules lets the host log the SDK out (E final, storage cleared).
    func hostDenial(_ index: Int, reason: String) {
        guard slots[index].service != nil else { return }
        ledger.note("host  logs out slot \(index): ssoDenied (\(reason))")
        ledger.hostDenied()
        hostAnswered(index)
        host?.loggedIn = false
        let ended = registrationsEnded
        spawn("logout(ssoDenied)", slot: index) { service in
            do {
                _ = try await service.logout(.ssoDenied)
                await self.loggedOutCompleted(by: service, registrationsEndedBefore: ended)
                return "logged out"
            } catch {
                return "\(error)"
            }
        }
    }

    /// The user logs out in the host app. Seed 000: only online — a logout that ends a session must have reached a
    /// server (the only way the engine can know it is online).
    func hostUserLogout(_ index: Int) {
        guard slots[index].service != nil else { return }
        let incarnation = slots[index].incarnation
        ledger.note("act   user logs out in the host app on slot \(index)")
        hostAnswered(index)
        host?.loggedIn = false
        let ledger = ledger
        let disk: any SimulatedStorage = disk
        let liveness = liveness
        let ended = registrationsEnded
        spawn("logout(userRequested)", slot: index) { service in
            let reached = ledger.deliveredCount(by: incarnation)
            // A provisional record on disk is another process's registration, never this session.
            let hadSession = await service.state.session != nil
                && disk.peek("credentials").map { !SimulationRun.isProvisional($0) } == true
            let traced = ledger.trace.count
            let removals = ledger.credentialRemovalCount
            do {
                let result = try await service.logout(.userRequested)
                // Something else may have ended the session meanwhile, leaving this call nothing to end: another
                // process's removal of the record (its store is shared; seed 774719547: a forced logout learnt from
                // the backend), or a logout or forced logout that returned while this call waited having ended it
                // (``sessionEndedMeanwhile(_:)``) — another process's (seed 7490735389), a concurrent logout in this
                // process, whose outcome this call then answers with (seed 704792205), or a forced logout the backend
                // ordered in this process (seed 6000201792). This call's own line is traced after it returns, so it
                // is not among them.
                let endedElsewhere = ledger.credentialsRemoved(since: removals, byOtherThan: incarnation)
                    || SimulationRun.sessionEndedMeanwhile(ledger.trace.dropFirst(traced))
                // A process that died during the call (a crash at a system call) answers no one: nothing to judge.
                if hadSession, !endedElsewhere, liveness.isAlive(incarnation), ledger.deliveredCount(by: incarnation) == reached {
                    ledger.violation("logout-rules", "p\(incarnation)'s user logout succeeded (\(result)) though nothing reached a server")
                }
                await self.loggedOutCompleted(by: service, registrationsEndedBefore: ended)
                return "\(result)"
            } catch {
                return "refused (\(error))"
            }
        }
    }

    /// Whether `lines` (the trace since a user logout began) hold a logout, forced logout or clear-state, in any
    /// process, that returned having ended the session: one refused (offline, the store's lock not taken) ended
    /// nothing, and does not excuse a user logout that succeeded without reaching a server.
    static func sessionEndedMeanwhile(_ lines: ArraySlice<String>) -> Bool {
        lines.contains { line in
            line.contains("call  p") && !line.contains(" -> refused (")
                && (line.contains(" logout(") || line.contains(" logout -> ") || line.contains(" forcedLogout ")
                    || line.contains(" clearState -> removed"))
        }
    }

    /// Listens to a host-mode process's events for the notices (E awaitingHost).
    func listenForNotices(_ service: RegStateService, incarnation: Int) async {
        let stream = await service.events()
        listeners.append(Task.detached {
            for await event in stream where event == .error(.renewal(.awaitingHost)) {
                await self.noticed(incarnation)
            }
        })
    }
}
