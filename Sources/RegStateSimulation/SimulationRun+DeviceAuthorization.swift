import Foundation
import RegState
import RegStateSimulator

/// The device world (``SimulationWorld/device``): every registration is a sign-in on another device (RFC 8628). The
/// user approves after a few polls, denies, or never answers (the code expires); the provider owes `slow_down`s now
/// and then; processes crash and relaunch in the middle, and a relaunched process in **D** with an authorization
/// pending takes it up (`device-resumes`: the same user code, never a second authorization). ``DeviceAudit`` checks
/// the polls on the wire; ``checkDeviceCodeSecret()`` checks the journals and the trace at the end.
extension SimulationRun {
    /// The provider's device settings for the run: the interval it announces (or none), the code's lifetime, and
    /// whether it sends the complete URI.
    func prepareDeviceWorld() async {
        let interval: TimeInterval? = [nil, 1, 5, 10][worldRandom.below(4)]
        let lifetime: TimeInterval = [30, 60, 120, 300][worldRandom.below(4)]
        let complete = worldRandom.chance(50)
        await simulator.setDeviceAuthorization(offered: true, interval: interval, sendsCompleteURI: complete,
                                               lifetime: lifetime)
        ledger.note("world device authorization: interval \(interval.map { "\(Int($0))s" } ?? "none"), code lifetime "
                    + "\(Int(lifetime))s, complete URI \(complete ? "sent" : "not sent")")
    }

    /// The device world's own meaning of two actions, while the slot has no session: a renewal asked for becomes a
    /// new sign-in on another device, a rejected token becomes the app cancelling the one in progress. `false`: the
    /// common meaning applies.
    func performInDeviceWorld(_ action: SimulationAction, slot index: Int) async -> Bool {
        guard let service = slots[index].service else { return false }
        let state = await service.state
        if case .active = state { return false }
        switch action {
        case .renewNow:
            await registerOnAnotherDevice(index, spawned: true)
        case .backendRejects:
            guard state == .authenticating(.device) else { return false }
            ledger.note("act   the app cancels the sign-in on another device on slot \(index)")
            spawn("cancelDeviceLogin", slot: index) { service in
                await service.cancelDeviceRegistration()
                return "cancelled"
            }
        default:
            return false
        }
        return true
    }

    /// What the user on the other device does with a code, drawn when the sign-in begins.
    struct DeviceUser: Sendable {
        enum Decision: Sendable { case approve, deny, never }
        var decision: Decision
        var afterPolls: Int
        var slowDowns: Int
    }

    func drawDeviceUser() -> DeviceUser {
        let roll = worldRandom.below(10)
        let decision: DeviceUser.Decision = roll < 6 ? .approve : roll < 8 ? .deny : .never
        return DeviceUser(decision: decision, afterPolls: worldRandom.below(5),
                          slowDowns: worldRandom.chance(30) ? 1 + worldRandom.below(2) : 0)
    }

    /// The sign-in on another device on slot `index` (when it is not active): begun, acted on by the user, polled to
    /// its end, and confirmed when tokens came.
    func registerOnAnotherDevice(_ index: Int, spawned: Bool) async {
        guard let service = slots[index].service else { return }
        ledger.note("act   user signs in on another device on slot \(index)")
        let user = drawDeviceUser()
        loggedOut = false
        registrationsInFlight += 1
        grantCapableCalls += 1
        let work: @Sendable (RegStateService) async -> String = { service in
            defer { Task { await self.registrationEnded() } }
            do {
                let shown = try await service.beginDeviceRegistration()
                await self.act(as: user, on: shown.userCode)
                return try await Self.finishDeviceLogin(service)
            } catch {
                _ = try? await service.retryRegistration()
                return "device sign-in failed (\(error))"
            }
        }
        if spawned {
            spawn("deviceLogin", slot: index, work)
        } else {
            ledger.note("call  p\(slots[index].incarnation) deviceLogin -> \(await work(service))")
        }
    }

    /// A process launched in **D** while an unexpired authorization is pending on the disk takes it up: the code it
    /// shows must be the pending one's (`device-resumes`), and it polls it to its end.
    func resumeDeviceLogin(_ index: Int, state: RegState) {
        guard state == .registrationRequired, let record = disk.peek(DeviceAudit.recordKey),
              let expiresAt = DeviceAudit.expiry(of: record), clock.now() < expiresAt,
              let pendingCode = (try? JSONValue.parse(record))?["verification"]?["userCode"]?.stringValue
        else { return }
        ledger.note("act   slot \(index) takes up the pending sign-in on another device")
        registrationsInFlight += 1
        grantCapableCalls += 1
        let ledger = ledger
        let incarnation = slots[index].incarnation
        spawn("deviceResume", slot: index) { service in
            defer { Task { await self.registrationEnded() } }
            do {
                let shown = try await service.beginDeviceRegistration()
                if shown.userCode != pendingCode, await self.diskMishapsAllowResume(pendingCode) == false {
                    ledger.violation("device-resumes", "p\(incarnation) relaunched with an authorization pending, "
                                     + "but began another one")
                }
                return try await Self.finishDeviceLogin(service)
            } catch {
                _ = try? await service.retryRegistration()
                return "device sign-in failed (\(error))"
            }
        }
    }

    /// Whether the pending record `pendingCode` names is gone from the disk now (another process finished, a
    /// clear-state or logout removed it meanwhile): then another code is no failure to resume.
    func diskMishapsAllowResume(_ pendingCode: String) -> Bool {
        guard let record = disk.peek(DeviceAudit.recordKey),
              let code = (try? JSONValue.parse(record))?["verification"]?["userCode"]?.stringValue else { return true }
        return code != pendingCode
    }

    /// Polls to the end and confirms; the outcome for the trace (never a code).
    static func finishDeviceLogin(_ service: RegStateService) async throws -> String {
        _ = try await service.completeDeviceRegistration()
        _ = try await service.confirmRegistration()
        return "registered on another device"
    }

    /// The user on the other device, at the provider.
    func act(as user: DeviceUser, on userCode: String) async {
        if user.slowDowns > 0 { try? await simulator.slowDownDevicePolls(userCode: userCode, count: user.slowDowns) }
        switch user.decision {
        case .approve: try? await simulator.approveDeviceAuthorization(userCode: userCode, as: email, afterPolls: user.afterPolls)
        case .deny: try? await simulator.denyDeviceAuthorization(userCode: userCode, afterPolls: user.afterPolls)
        case .never: break
        }
        ledger.note("act   the other device: \(user.decision) after \(user.afterPolls) poll(s), \(user.slowDowns) slow_down(s)")
    }

    /// device-code-secret: no device code in any journal line of any process, nor in the trace (which holds every
    /// call's outcome and every request line). And the end-of-run note.
    func checkDeviceCodeSecret() async {
        guard let audit = deviceAudit else { return }
        let codes = audit.deviceCodes
        var lines = ledger.trace
        for slot in slots {
            guard let service = slot.service, let entries = try? await service.journalEntries() else { continue }
            lines += entries.compactMap { try? $0.encoded() }.map { String(decoding: $0, as: UTF8.self) }
        }
        for code in codes where lines.contains(where: { $0.contains(code) }) {
            ledger.violation("device-code-secret", "a device code appears in a journal line or the trace")
        }
        ledger.note("check device: \(audit.issued) authorization(s), \(audit.polls) poll(s), \(audit.slowDowns) "
                    + "slow_down(s), \(audit.tokenAnswers) token answer(s)")
    }
}
