import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import RegStateTesting

/// One action of a step, drawn before it is performed: a step the shrinker skips draws the same numbers, so every
/// later step stays what it was.
enum SimulationAction {
    case callers(slot: Int, count: Int)
    case clockForward(Double)
    case clockJump(Double)
    case clockBack(Double)
    case networkFaults(Int)
    case toggleOffline
    case crash(slot: Int, relaunch: Bool)
    case launch(slot: Int)
    case backendRejects(slot: Int)
    case renewNow(slot: Int)
    case logout(slot: Int)
    case clearState(slot: Int)
    case register(slot: Int)
    case revoke(slot: Int)
    case forcedLogout(slot: Int)
    case diskFaults(write: Int, crash: Int)
    case reuseGrace(TimeInterval)
    case providerDown(Bool)
    case idle(turns: Int, extra: ExtraAction)
}

/// The provider-side faults drawn from the second stream during idle turns.
enum ExtraAction {
    case rotate(keepingOld: Bool, key: Int)
    case deviceLimit(Int?)
    case tokenLimit(Int?)
    /// The device's clock, set a day ahead, is set right again: it jumps back a whole day.
    case clockBackADay
    case none
}

extension SimulationRun {
    /// One action, drawn from the seed: users calling, time passing, the network and the disk failing, processes
    /// crashing and relaunching, the provider and the backend changing their minds. A skipped step only draws.
    func act() async {
        let action = drawAction()
        if options.skippedSteps.contains(currentStep) {
            ledger.note("skip  \(action)")
            return
        }
        await perform(action)
    }

    func drawAction() -> SimulationAction {
        let index = random.below(slots.count)
        let roll = random.below(100)
        switch roll {
        case 0..<24: return .callers(slot: index, count: 1 + random.below(3))
        case 24..<34: return .clockForward(Double(1 + random.below(Int(accessLifetime))))
        case 34..<38: return .clockJump(Double(3600 * (1 + random.below(72))))
        case 38..<41: return .clockBack(Double(1 + random.below(600)))
        case 41..<48: return .networkFaults([0, 10, 30, 60][random.below(4)])
        case 48..<52: return .toggleOffline
        case 52..<58: return .crash(slot: index, relaunch: random.chance(60))
        case 58..<63: return .launch(slot: index)
        case 63..<68: return .backendRejects(slot: index)
        case 68..<72: return .renewNow(slot: index)
        case 72..<74: return .logout(slot: index)
        case 74..<75: return .clearState(slot: index)
        case 75..<80: return .register(slot: index)
        case 80..<82: return .revoke(slot: index)
        case 82..<84: return .forcedLogout(slot: index)
        case 84..<88:
            let write = [0, 0, 10, 30][random.below(4)]
            return .diskFaults(write: write, crash: [0, 0, 5, 15][random.below(4)])
        case 88..<91: return .reuseGrace(random.chance(50) ? 0 : 30)
        case 91..<94: return .providerDown(random.chance(50))
        default: return .idle(turns: 1 + random.below(20), extra: drawExtra())
        }
    }

    func drawExtra() -> ExtraAction {
        switch extraRandom.below(100) {
        case 0..<40 where !Self.spareKeys.isEmpty:
            let keepingOld = extraRandom.chance(60)
            return .rotate(keepingOld: keepingOld, key: extraRandom.below(Self.spareKeys.count))
        case 40..<55: return .deviceLimit([nil, 1, 2][extraRandom.below(3)])
        case 55..<70: return .tokenLimit([nil, 1, 2][extraRandom.below(3)])
        case 95..<100: return .clockBackADay
        default: return .none
        }
    }

    func perform(_ action: SimulationAction) async {
        if world != .plain, await performInWorld(action) { return }
        switch action {
        case .callers(let index, let callers):
            ledger.note("act   \(callers) caller(s) want a token on slot \(index)")
            for _ in 0..<callers { callForToken(index) }
        case .clockForward(let seconds):
            clock.advance(by: seconds)
            ledger.note("act   clock +\(Int(seconds))s")
        case .clockJump(let seconds):
            clock.advance(by: seconds)
            ledger.note("act   clock jumps +\(Int(seconds))s")
        case .clockBack(let seconds):
            guard !options.disabledFaults.contains(.clockBack) else { return ledger.note("act   clock back (turned off)") }
            ledger.clockSetBack(from: clock.now())
            clock.advance(by: -seconds)
            rewoundSeconds += seconds
            ledger.note("act   clock jumps back -\(Int(seconds))s")
        case .networkFaults(let percent):
            network.faultPercent = percent
            ledger.note("act   network faults \(percent)%")
        case .toggleOffline:
            network.isOffline.toggle()
            ledger.note("act   network \(network.isOffline ? "offline" : "online")")
        case .crash(let index, let relaunch):
            ledger.note("act   crash slot \(index) (p\(slots[index].incarnation))")
            if options.injectedFailure == .crashWhileOffline, network.isOffline, slots[index].service != nil {
                ledger.violation("injected", "slot \(index) crashed while the network was offline (test-only failure)")
            }
            end(slots[index])
            if relaunch { await launch(index, reason: "relaunch after crash") }
        case .launch(let index):
            await launch(index, reason: "app launch")
        case .backendRejects(let index):
            ledger.note("act   backend rejects the token on slot \(index)")
            grantCapableCalls += 1
            forceRenewal(index)
            spawn("tokenRejected", slot: index) { service in
                guard let token = try? await service.validAccessToken().token else { return "no token to reject" }
                return await service.tokenRejected(token) == nil ? "no new token" : "new token"
            }
        case .renewNow(let index):
            grantCapableCalls += 1
            forceRenewal(index)
            ledger.note("act   renew now on slot \(index)")
            spawn("renewSession", slot: index) { service in SimulationRun.describe(await service.renewSession()) }
        case .logout(let index):
            ledger.note("act   user logs out on slot \(index)")
            let (ledger, liveness, incarnation) = (ledger, liveness, slots[index].incarnation)
            let otherClient = isAnotherClient(index)
            let ended = registrationsEnded
            spawn("logout", slot: index) { service in
                let reached = ledger.deliveredCount(by: incarnation)
                let (traced, removals) = (ledger.trace.count, ledger.credentialRemovalCount)
                do {
                    let result = try await service.logout().result
                    // issuer-client-binding: the other client's logout ends its own session only, never the world
                    // client's record.
                    if otherClient, ledger.credentialsRemoved(since: removals, by: incarnation) {
                        ledger.violation("issuer-client-binding", "p\(incarnation), built for \(Self.anotherClientID), "
                                         + "removed the world client's credentials in its logout")
                    }
                    // logout-rules (seed 000: logout only online): a logout that revoked, or tried to revoke, the
                    // session's refresh token reached the provider, unless something else ended the session meanwhile
                    // (as for the host world's logout) or the process died during it.
                    let endedElsewhere = ledger.credentialsRemoved(since: removals, byOtherThan: incarnation)
                        || SimulationRun.sessionEndedMeanwhile(ledger.trace.dropFirst(traced))
                    if result != .nothingToRevoke, result != .revocationUnsupported, !endedElsewhere,
                       liveness.isAlive(incarnation), ledger.deliveredCount(by: incarnation) == reached {
                        ledger.violation("logout-rules", "p\(incarnation)'s logout succeeded (\(result)) though nothing "
                                         + "reached a server")
                    }
                    await self.loggedOutCompleted(by: service, registrationsEndedBefore: ended)
                    return "\(result)"
                } catch {
                    return "refused (\(error))"
                }
            }
        case .clearState(let index):
            ledger.note("act   clear-state on slot \(index)")
            budgetWatch?.cleared(slots[index].incarnation)
            let ended = registrationsEnded
            spawn("clearState", slot: index) { service in
                let removed = await service.clearState()
                // Records the store could not remove (its lock stayed taken) are reported, and not a completed wipe.
                if let remain = removed.credentialsRemain { return "credentials remain (\(remain.localizedDescription))" }
                await self.loggedOutCompleted(by: service, removingEverything: true, registrationsEndedBefore: ended)
                return "removed \(removed.removedKeys.count) key(s), backend: \(removed.installation.name)"
            }
        case .register(let index):
            await register(index, spawned: true)
        case .revoke:
            let families = (try? await simulator.revokeAllRefreshTokens(for: email)) ?? 0
            ledger.note("act   provider revokes the session (\(families) famil(ies)): explicit denial")
        case .forcedLogout(let index):
            _ = try? await simulator.forceLogout(email: email)
            ledger.note("act   backend forces logout; slot \(index) learns it")
            let ended = registrationsEnded
            spawn("forcedLogout", slot: index) { service in
                do {
                    try await service.handleForcedLogout()
                    await self.loggedOutCompleted(by: service, registrationsEndedBefore: ended)
                    return "logged out"
                } catch {
                    return "refused (\(error))"
                }
            }
        case .diskFaults(let write, let crash):
            disk.writeFailurePercent = options.disabledFaults.contains(.diskWrite) ? 0 : write
            disk.crashPercent = options.disabledFaults.contains(.diskCrash) ? 0 : crash
            ledger.note("act   disk write failures \(disk.writeFailurePercent)% crashes \(disk.crashPercent)%")
        case .reuseGrace(let grace):
            await simulator.reconfigure { $0.refreshReuseGrace = grace }
            ledger.note("act   provider reuse grace \(Int(grace))s")
        case .providerDown(let drawn):
            let down = drawn && !options.disabledFaults.contains(.providerDown)
            await simulator.setProviderDown(down)
            ledger.note("act   provider \(down ? "down (500)" : "up")")
        case .idle(let turns, let extra):
            ledger.note("act   idle \(turns) turn(s)")
            for _ in 0..<turns { await DeterministicScheduler.yield() }
            await actExtra(extra)
        }
    }

    /// The faults added later (drawn from ``extraRandom`` during idle turns): signing-key rotation (the old key kept in
    /// the JWKS or dropped at once), device / security-token limits at the backend, and the clock set back a whole day
    /// (stored times from "the future": rejection holds, renewal marks, expiries).
    func actExtra(_ extra: ExtraAction) async {
        switch extra {
        case .rotate(let keepingOld, let index):
            let rotated = (try? await simulator.rotateSigningKey(to: Self.spareKeys[index], keepingOld: keepingOld)) != nil
            ledger.note("act   provider rotates its signing key (old key \(keepingOld ? "kept" : "dropped"))"
                        + (rotated ? "" : " FAILED"))
        case .deviceLimit(let limit):
            await simulator.setMaxDevicesPerUser(limit)
            ledger.note("act   backend device limit \(limit.map(String.init) ?? "none")")
        case .tokenLimit(let limit):
            await simulator.setMaxSecurityTokensPerDevice(limit)
            ledger.note("act   backend security-token limit \(limit.map(String.init) ?? "none")")
        case .clockBackADay:
            await perform(.clockBack(86_400))
        case .none:
            break
        }
    }

    /// Keys the provider rotates to: checked-in test keys, the same in every process.
    static let spareKeys: [RSAPrivateKey] = CheckedInKeys.spares

    func callForToken(_ index: Int) {
        grantCapableCalls += 1
        spawn("validAccessToken", slot: index) { service in
            do {
                _ = try await service.validAccessToken().token
                return "token"
            } catch {
                return "\(error)"
            }
        }
    }

    func registrationEnded() { registrationsInFlight -= 1 }

    /// The social registration on slot `index` (when it is not active), through the faulty network.
    func register(_ index: Int, spawned: Bool) async {
        guard let service = slots[index].service else { return }
        if case .active = await service.state { return }
        if world == .forgedRedirect { return await registerPastForgeries(index) }
        if world == .device { return await registerOnAnotherDevice(index, spawned: spawned) }
        if world == .host {
            hostPush(index, .fresh, reason: "the user logs in to the host app")
            if !spawned { await awaitPending() }
            return
        }
        ledger.note("act   user registers on slot \(index)")
        loggedOut = false
        registrationsInFlight += 1
        grantCapableCalls += 1
        let simulator = simulator
        let email = email
        let work: @Sendable (RegStateService) async -> String = { service in
            defer { Task { await self.registrationEnded() } }
            do {
                let url = try await service.beginSocialRegistration()
                let callback = try await simulator.authorize(url, as: email)
                _ = try await service.completeSocialRegistration(callback: callback)
                _ = try await service.confirmRegistration()
                return "registered"
            } catch {
                _ = try? await service.retryRegistration()
                return "registration failed (\(error))"
            }
        }
        if spawned {
            spawn("register", slot: index, work)
        } else {
            ledger.note("call  p\(slots[index].incarnation) register -> \(await work(service))")
        }
    }

    /// A call on slot `index` renews whatever the token's age: counted for the per-lifetime renewal-storm bound, and
    /// credited to the slot's process for `needless-renewal`.
    func forceRenewal(_ index: Int) {
        explicitRenewals += 1
        ledger.forcedRenewal(by: slots[index].incarnation)
    }
}
