import Foundation
import RegState
import RegStateSimulator

extension SimulationRun {
    /// One action, drawn from the seed: users calling, time passing, the network and the disk failing, processes
    /// crashing and relaunching, the provider and the backend changing their minds.
    func act() async {
        let index = random.below(slots.count)
        let roll = random.below(100)
        switch roll {
        case 0..<24:
            let callers = 1 + random.below(3)
            ledger.note("act   \(callers) caller(s) want a token on slot \(index)")
            for _ in 0..<callers { callForToken(index) }
        case 24..<34:
            let seconds = Double(1 + random.below(Int(accessLifetime)))
            clock.advance(by: seconds)
            ledger.note("act   clock +\(Int(seconds))s")
        case 34..<38:
            let seconds = Double(3600 * (1 + random.below(72)))
            clock.advance(by: seconds)
            ledger.note("act   clock jumps +\(Int(seconds))s")
        case 38..<41:
            let seconds = Double(1 + random.below(600))
            clock.advance(by: -seconds)
            rewoundSeconds += seconds
            ledger.note("act   clock jumps back -\(Int(seconds))s")
        case 41..<48:
            let percent = [0, 10, 30, 60][random.below(4)]
            network.faultPercent = percent
            ledger.note("act   network faults \(percent)%")
        case 48..<52:
            network.isOffline.toggle()
            ledger.note("act   network \(network.isOffline ? "offline" : "online")")
        case 52..<58:
            ledger.note("act   crash slot \(index) (p\(slots[index].incarnation))")
            end(slots[index])
            if random.chance(60) { await launch(index, reason: "relaunch after crash") }
        case 58..<63:
            await launch(index, reason: "app launch")
        case 63..<68:
            ledger.note("act   backend rejects the token on slot \(index)")
            grantCapableCalls += 1
            explicitRenewals += 1
            spawn("tokenRejected", slot: index) { service in
                guard let token = try? await service.validAccessToken() else { return "no token to reject" }
                return await service.tokenRejected(token) == nil ? "no new token" : "new token"
            }
        case 68..<72:
            grantCapableCalls += 1
            explicitRenewals += 1
            ledger.note("act   renew now on slot \(index)")
            spawn("renewSession", slot: index) { service in SimulationRun.describe(await service.renewSession()) }
        case 72..<74:
            ledger.note("act   user logs out on slot \(index)")
            spawn("logout", slot: index) { service in
                do {
                    let result = try await service.logout()
                    await self.loggedOutCompleted(by: service)
                    return "\(result)"
                } catch {
                    return "refused (\(error))"
                }
            }
        case 74..<75:
            ledger.note("act   clear-state on slot \(index)")
            spawn("clearState", slot: index) { service in
                let removed = await service.clearState()
                await self.loggedOutCompleted(by: service)
                return "removed \(removed.removedKeys.count) key(s), backend: \(removed.installation.name)"
            }
        case 75..<80:
            await register(index, spawned: true)
        case 80..<82:
            let families = (try? await simulator.revokeAllRefreshTokens(for: email)) ?? 0
            ledger.note("act   provider revokes the session (\(families) famil(ies)): explicit denial")
        case 82..<84:
            _ = try? await simulator.forceLogout(email: email)
            ledger.note("act   backend forces logout; slot \(index) learns it")
            spawn("forcedLogout", slot: index) { service in
                do {
                    try await service.handleForcedLogout()
                    await self.loggedOutCompleted(by: service)
                    return "logged out"
                } catch {
                    return "not active"
                }
            }
        case 84..<88:
            disk.writeFailurePercent = [0, 0, 10, 30][random.below(4)]
            disk.crashPercent = [0, 0, 5, 15][random.below(4)]
            ledger.note("act   disk write failures \(disk.writeFailurePercent)% crashes \(disk.crashPercent)%")
        case 88..<91:
            let grace: TimeInterval = random.chance(50) ? 0 : 30
            await simulator.reconfigure { $0.refreshReuseGrace = grace }
            ledger.note("act   provider reuse grace \(Int(grace))s")
        case 91..<94:
            let down = random.chance(50)
            await simulator.setProviderDown(down)
            ledger.note("act   provider \(down ? "down (500)" : "up")")
        default:
            let turns = 1 + random.below(20)
            ledger.note("act   idle \(turns) turn(s)")
            for _ in 0..<turns { await DeterministicScheduler.yield() }
            await actExtra()
        }
    }

    /// The provider-side faults added later, drawn from ``extraRandom`` during idle turns: signing-key rotation (the
    /// old key kept in the JWKS or dropped at once) and device / security-token limits at the backend.
    func actExtra() async {
        let roll = extraRandom.below(100)
        switch roll {
        case 0..<40 where !Self.spareKeys.isEmpty:
            let keepingOld = extraRandom.chance(60)
            let key = Self.spareKeys[extraRandom.below(Self.spareKeys.count)]
            let rotated = (try? await simulator.rotateSigningKey(to: key, keepingOld: keepingOld)) != nil
            ledger.note("act   provider rotates its signing key (old key \(keepingOld ? "kept" : "dropped"))"
                        + (rotated ? "" : " FAILED"))
        case 40..<55:
            let limit = [nil, 1, 2][extraRandom.below(3)]
            await simulator.setMaxDevicesPerUser(limit)
            ledger.note("act   backend device limit \(limit.map(String.init) ?? "none")")
        case 55..<70:
            let limit = [nil, 1, 2][extraRandom.below(3)]
            await simulator.setMaxSecurityTokensPerDevice(limit)
            ledger.note("act   backend security-token limit \(limit.map(String.init) ?? "none")")
        default:
            break
        }
    }

    /// Keys the provider rotates to, made once per process (their bits do not reach the trace).
    static let spareKeys: [RSAPrivateKey] = (0..<3).compactMap { _ in try? SystemCrypto().generateRSAPrivateKey(bits: 2048) }

    func callForToken(_ index: Int) {
        grantCapableCalls += 1
        spawn("validAccessToken", slot: index) { service in
            do {
                _ = try await service.validAccessToken()
                return "token"
            } catch {
                return "\(error)"
            }
        }
    }

    /// A logout, forced logout or clear-state returned: from now on no token may reach the disk until someone
    /// registers again.
    func loggedOutCompleted(by service: RegStateService) {
        // A process that ended meanwhile completed nothing on disk.
        guard let slot = slots.first(where: { $0.service === service }), liveness.isAlive(slot.incarnation) else { return }
        // A registration running meanwhile (in another process) may store tokens again: that is not a comeback.
        guard registrationsInFlight == 0 else { return }
        loggedOut = true
        checkNoTokenOnDisk("after logout")
    }

    func registrationEnded() { registrationsInFlight -= 1 }

    /// The social registration on slot `index` (when it is not active), through the faulty network.
    func register(_ index: Int, spawned: Bool) async {
        guard let service = slots[index].service else { return }
        if case .active = await service.state { return }
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
}
