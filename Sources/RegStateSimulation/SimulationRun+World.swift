import Foundation
import RegState
import RegStateSimulator

/// Host and DPoP worlds: their set-up, the choices they make at every step (from ``SimulationRun/worldRandom``),
/// and how they perform the actions whose meaning differs there.
extension SimulationRun {
    func prepareWorld() async {
        switch world {
        case .plain, .launchBudget, .sharedJournal, .memory, .forgedRedirect, .anotherClient, .refreshedIDToken:
            break
        case .device:
            await prepareDeviceWorld()
        case .stepUp:
            await prepareStepUpWorld()
        case .together:
            // Bound tokens, so that a registration in one process replaces the key the others' tokens name.
            let mode: SimulatorDPoPMode = worldRandom.chance(50) ? .allowed : .required
            await simulator.setDPoP(mode)
            ledger.note("world provider DPoP \(mode.rawValue), no nonces; engine DPoP when offered")
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
        case .plain, .launchBudget, .sharedJournal, .rejectingBackend, .forgedRedirect, .anotherClient, .together, .device,
             .stepUp:
            break
        case .refreshedIDToken:
            guard worldRandom.chance(8) else { return }
            let defective = !network.refreshedIDTokensDefective
            network.refreshedIDTokensDefective = defective
            await simulator.setRefreshedIDTokenDefect(defective ? .otherSubject : nil)
            ledger.note("act   provider's refreshed ID tokens " + (defective ? "name another subject" : "honest again"))
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
        case (.stepUp, .callers(let index, let count)):
            ledger.note("act   \(count) payment call(s) on slot \(index)")
            for _ in 0..<count { await stepUpCall(index) }
        case (.dpop, .callers(let index, let count)):
            ledger.note("act   \(count) caller(s) want a token or call the API on slot \(index)")
            for _ in 0..<count {
                if worldRandom.chance(50) { callAPI(index) } else { callForToken(index) }
            }
        case (.together, .callers(_, let count)):
            ledger.note("act   \(count) caller(s) want a token on every slot")
            for index in slots.indices {
                for _ in 0..<count { callForToken(index) }
            }
        case (.together, .register(let index)):
            // The extensions call the API while the app registers (a new session and key replacing theirs).
            ledger.note("act   user registers on slot \(index) while every other slot calls the API")
            for other in slots.indices where other != index { callAPI(other) }
            await register(index, spawned: true)
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
        case (.device, .clockBack):
            // The device world's checks read gaps on one forward clock.
            ledger.note("act   clock back (not in the device world)")
        case (.device, .renewNow(let index)), (.device, .backendRejects(let index)):
            return await performInDeviceWorld(action, slot: index)
        default:
            return false
        }
        return true
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
        let (ledger, clock, disk, carrier) = (ledger, clock, disk as any SimulatedStorage, rejectionAudit?.carrier)
        spawn("api", slot: index) { service in
            let api = AuthorizedTransport(base: transport, service: service, policy: policy)
            let setBacks = ledger.clockSetBackCount
            do throws(RegStateServiceError) {
                return "\(try await api.send(HTTPRequest(method: .get, url: resource)).status)"
            } catch .rejectionHeld(let until) {
                if let carrier, ledger.clockSetBackCount == setBacks {
                    Self.checkHoldBound(until, now: clock.now(), record: disk.peek("credentials"), carrier: carrier,
                                        ledger: ledger)
                }
                return "\(RegStateServiceError.rejectionHeld(until: until))"
            } catch {
                return "\(error)"
            }
        }
    }

    /// The heal's part in host and DPoP worlds: the host answers every notice with a fresh token from now on; a
    /// hostile nonce policy ends.
    func healWorld() async {
        switch world {
        case .plain, .launchBudget, .memory, .rejectingBackend, .forgedRedirect, .anotherClient, .together, .device,
             .stepUp:
            break
        case .refreshedIDToken:
            network.refreshedIDTokensDefective = false
            await simulator.setRefreshedIDTokenDefect(nil)
        case .sharedJournal:
            disk.fileSystem?.sharedAppendCrashes = false
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
