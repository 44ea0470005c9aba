import Foundation
import RegState
import RegStateSimulator

/// Host and DPoP worlds: their set-up, the choices they make at every step (from ``SimulationRun/worldRandom``),
/// and how they perform the actions whose meaning differs there.
extension SimulationRun {
    func prepareWorld() async {
        switch world {
        case .plain, .launchBudget, .sharedJournal, .memory, .forgedRedirect:
            break
        case .rejectingBackend:
            await prepareRejectingBackend()
        case .pushedAuthorization:
            await preparePushedAuthorization()
        case .dpop:
            let mode: SimulatorDPoPMode = worldRandom.chance(50) ? .allowed : .required
            let nonce: SimulatorDPoPNonce = worldRandom.chance(50) ? .off : .required
            engineRequiresDPoP = worldRandom.chance(30)
            await simulator.setDPoP(mode)
            await simulator.setDPoPNonce(nonce)
            ledger.note("world provider DPoP \(mode.rawValue), nonces \(nonce.rawValue); engine DPoP "
                        + (engineRequiresDPoP ? "required" : "when offered"))
        case .host:
            await simulator.setResourceTakesSecurityToken(true)
            host = SimulatedHost(client: OIDCClient(configuration: configuration().oidc, transport: simulator.transport,
                                                    crypto: crypto, clock: clock))
            ledger.note("world host mode: the host pushes ID tokens; the API takes the security token")
        }
    }

    /// What the world does at the start of every step: the host answers some of its notices; a DPoP provider
    /// sometimes turns hostile with its nonces (a new one on every answer, none accepted), and back.
    func actWorld() async {
        switch world {
        case .plain, .launchBudget, .sharedJournal, .rejectingBackend, .forgedRedirect:
            break
        case .memory:
            await churnSubscribers()
        case .pushedAuthorization:
            await actPushedAuthorization()
        case .dpop:
            guard worldRandom.chance(4) else { return }
            let hostile = await simulator.configuration.dpopNonce == .changesEveryAnswer
            let nonce: SimulatorDPoPNonce = hostile ? (worldRandom.chance(50) ? .off : .required) : .changesEveryAnswer
            await simulator.setDPoPNonce(nonce)
            ledger.note("act   provider DPoP nonces \(nonce.rawValue)")
        case .host:
            guard var inbox = host?.inbox, !inbox.isEmpty else { return }
            host?.inbox = []
            var kept: [Int] = []
            while !inbox.isEmpty {
                let incarnation = inbox.removeFirst()
                if worldRandom.chance(50) { answerNotice(incarnation) } else { kept.append(incarnation) }
            }
            let arrived = host?.inbox ?? []
            host?.inbox = kept + arrived
        }
    }

    /// Performs `action` where a host or DPoP world gives it another meaning; `false` leaves it to the common path.
    func performInWorld(_ action: SimulationAction) async -> Bool {
        if world == .rejectingBackend { return await performRejecting(action) }
        switch (world, action) {
        case (.memory, _):
            return await performInMemoryWorld(action)
        case (.dpop, .callers(let index, let count)):
            ledger.note("act   \(count) caller(s) want a token or call the API on slot \(index)")
            for _ in 0..<count {
                if worldRandom.chance(50) { callAPI(index) } else { callForToken(index) }
            }
        case (.host, .callers(let index, let count)):
            ledger.note("act   \(count) caller(s) call the API on slot \(index)")
            for _ in 0..<count { callAPI(index) }
        case (.host, .backendRejects(let index)):
            // The host pushes on its own: after a login, at launch, coming to the foreground.
            let kind: HostPush = [.fresh, .fresh, .same, .same, .stale][worldRandom.below(5)]
            hostPush(index, kind, reason: "on its own")
        case (.host, .renewNow(let index)):
            hostTransient(index, reason: "on its own")
        case (.host, .logout(let index)):
            hostUserLogout(index)
        case (.host, .revoke(let index)):
            hostDenial(index, reason: "its SSO refused to renew")
        case (.host, .register(let index)):
            await register(index, spawned: true)
        default:
            return false
        }
        return true
    }

    // MARK: The host

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
        spawn("logout(ssoDenied)", slot: index) { service in
            do {
                _ = try await service.logout(.ssoDenied)
                await self.loggedOutCompleted(by: service)
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
        spawn("logout(userRequested)", slot: index) { service in
            let reached = ledger.deliveredCount(by: incarnation)
            // A provisional record on disk is another process's registration, never this session.
            let hadSession = await service.state.session != nil
                && disk.peek("credentials").map { !SimulationRun.isProvisional($0) } == true
            let traced = ledger.trace.count
            do {
                let result = try await service.logout(.userRequested)
                // Another process may have ended the session meanwhile (its store is shared): nothing left to end.
                // (On the simulated file system a removal's trace line names no process: another process's logout
                // that returned meanwhile says the same, a forced logout (seed 7490735389) as well as a logout(_:).)
                // So may a concurrent logout in this process that returned first (seed 704792205): this call then
                // answers with that one's outcome, and the server was reached by it.
                let endedElsewhere = ledger.trace.dropFirst(traced).contains {
                    ($0.contains(" remove credentials") && !$0.contains("disk  p\(incarnation) "))
                        || ($0.contains("call  p") && ($0.contains(" logout(") || $0.contains(" forcedLogout "))
                            && !$0.contains("call  p\(incarnation) "))
                        || $0.contains("call  p\(incarnation) logout(")
                }
                // A process that died during the call (a crash at a system call) answers no one: nothing to judge.
                if hadSession, !endedElsewhere, liveness.isAlive(incarnation), ledger.deliveredCount(by: incarnation) == reached {
                    ledger.violation("logout-rules", "p\(incarnation)'s user logout succeeded (\(result)) though nothing reached a server")
                }
                await self.loggedOutCompleted(by: service)
                return "\(result)"
            } catch {
                return "refused (\(error))"
            }
        }
    }

    /// Listens to a host-mode process's events for the notices (E awaitingHost).
    func listenForNotices(_ service: RegStateService, incarnation: Int) async {
        let stream = await service.events()
        Task.detached {
            for await event in stream where event == .error(.renewal(.awaitingHost)) {
                await self.noticed(incarnation)
            }
        }
    }

    // MARK: The app's API

    /// A request of the app's API through ``AuthorizedTransport``: the security token in host worlds, the access
    /// token (with a DPoP proof when bound) otherwise.
    func callAPI(_ index: Int) {
        let incarnation = slots[index].incarnation
        let liveness = liveness
        let transport = network.transport(for: incarnation) { liveness.isAlive(incarnation) }
        let backend = SimulatorConfiguration().backendURL
        let resource = backend.appendingPathComponent("v1/resource/tickets")
        let policy = world == .host ? TokenPolicy.backend(backend)
            : rejectingWorldPolicy(backend: backend) ?? TokenPolicy(validatingURLs: [backend.appendingPathComponent("v1/resource")])
        if world != .host { grantCapableCalls += 1 }
        spawn("api", slot: index) { service in
            let api = AuthorizedTransport(base: transport, service: service, policy: policy)
            do {
                return "\(try await api.send(HTTPRequest(method: .get, url: resource)).status)"
            } catch {
                return "\(error)"
            }
        }
    }

    /// The heal's part in host and DPoP worlds: the host answers every notice with a fresh token from now on; a
    /// hostile nonce policy ends.
    func healWorld() async {
        switch world {
        case .plain, .launchBudget, .memory, .rejectingBackend, .forgedRedirect:
            break
        case .sharedJournal:
            (disk as? SimulatedFileSystem)?.sharedAppendCrashes = false
        case .pushedAuthorization:
            await healPushedAuthorization()
        case .dpop:
            if await simulator.configuration.dpopNonce == .changesEveryAnswer { await simulator.setDPoPNonce(.required) }
        case .host:
            host?.healing = true
            let inbox = host?.inbox ?? []
            host?.inbox = []
            for incarnation in inbox { answerNotice(incarnation) }
        }
    }
}
