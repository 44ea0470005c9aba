import Foundation
import RegState
import RegStateSimulator

/// The step-up world (``SimulationWorld/stepUp``): the app's API demands a sign-in within ``maxAge`` seconds for its
/// payments, so API calls meet RFC 9470 challenges as the virtual clock moves; the user then steps up, as the session's
/// user or now and then as another, sometimes across a relaunch, and the step-up's redirect is handed in again.
/// Invariants:
/// - `challenge-no-renewal`: a challenged call sends no refresh-token grant (``StepUpAudit`` watches the wire) and
///   ends in ``RegState/RegStateServiceError/stepUpRequired(_:)``;
/// - `step-up-same-user`: another user's step-up is refused and never replaces the stored session (it never names
///   that user);
/// - `step-up-once`: a step-up's redirect handed in again is refused without a code exchange (its tokens are
///   exchanged and stored once).
extension SimulationRun {
    /// What the world's step-ups did, for the end-of-run note.
    struct StepUpTally {
        var challenges = 0
        var steppedUp = 0
        var anotherUser = 0
        var relaunched = 0
    }

    /// The sign-in age the API demands for payments.
    static let stepUpMaxAge = 300

    /// The API demands a recent sign-in for its payments.
    func prepareStepUpWorld() async {
        await simulator.demandSignIn(AuthenticationRequirement(maxAge: Self.stepUpMaxAge),
                                     atResourcesUnder: "/v1/resource/payments")
        ledger.note("world the API demands a sign-in within \(Self.stepUpMaxAge) s for /v1/resource/payments")
    }

    /// One call of the payments API on slot `index`, run to its end; a challenge is answered with a step-up now and
    /// then.
    func stepUpCall(_ index: Int) async {
        guard let service = slots[index].service, let audit = stepUpAudit else { return }
        let incarnation = slots[index].incarnation
        let liveness = liveness
        let transport = network.transport(for: incarnation) { liveness.isAlive(incarnation) }
        let backend = SimulatorConfiguration().backendURL
        let payments = backend.appendingPathComponent("v1/resource/payments")
        let api = AuthorizedTransport(base: transport, service: service,
                                      policy: TokenPolicy(validatingURLs: [backend.appendingPathComponent("v1/resource")]))
        grantCapableCalls += 1
        audit.callStarted(incarnation)
        let outcome: Result<Int, RegStateServiceError>
        do throws(RegStateServiceError) {
            outcome = .success(try await api.send(HTTPRequest(method: .get, url: payments)).status)
        } catch {
            outcome = .failure(error)
        }
        audit.callEnded()
        ledger.note("call  p\(incarnation) api payments -> \(outcome)")
        guard case .failure(.stepUpRequired(let challenge)) = outcome, liveness.isAlive(incarnation) else { return }
        stepUpTally.challenges += 1
        guard worldRandom.chance(70) else { return }
        await stepUp(index, challenge)
    }

    /// The user steps up on slot `index` for `challenge`: as the session's user, or now and then as another.
    func stepUp(_ index: Int, _ challenge: StepUpChallenge) async {
        guard var service = slots[index].service, let audit = stepUpAudit else { return }
        let another = worldRandom.chance(25)
        let who = another ? "mallory@example.com" : email
        ledger.note("act   user steps up on slot \(index) as \(another ? "another user" : "the session's user")")
        let callback: URL
        do {
            let url = try await service.beginStepUp(requirement: challenge.requirement)
            callback = try await simulator.authorize(url, as: who)
        } catch {
            return ledger.note("call  p\(slots[index].incarnation) step-up -> did not begin (\(error))")
        }
        let relaunched = worldRandom.chance(20)
        if relaunched {
            await launch(index, reason: "relaunch while a step-up is pending")
            stepUpTally.relaunched += 1
            guard let again = slots[index].service else { return }
            service = again
        }
        let incarnation = slots[index].incarnation
        let outcome: Result<SignInAssurance, RegStateServiceError>
        do throws(RegStateServiceError) {
            outcome = .success(try await service.completeStepUp(callback: callback))
        } catch {
            outcome = .failure(error)
        }
        ledger.note("call  p\(incarnation) completes the step-up -> \(outcome)")
        guard liveness.isAlive(incarnation) else { return }
        if another {
            stepUpTally.anotherUser += 1
            if case .success = outcome {
                return ledger.violation("step-up-same-user", "p\(incarnation) took another user's step-up")
            }
            // The stored session never names the other user (other work of this process, a renewal in flight, may
            // rewrite the record meanwhile: byte-identical is the engine tests' check, StepUpGrantTests).
            if let after = disk.peek("credentials"), String(decoding: after, as: UTF8.self).contains(who) {
                ledger.violation("step-up-same-user", "p\(incarnation): another user's step-up replaced the stored session")
            }
            return
        }
        guard case .success = outcome else { return }
        stepUpTally.steppedUp += 1
        audit.replayStarted(incarnation)
        let replayed: Result<SignInAssurance, RegStateServiceError>
        do throws(RegStateServiceError) {
            replayed = .success(try await service.completeStepUp(callback: callback))
        } catch {
            replayed = .failure(error)
        }
        audit.replayEnded()
        ledger.note("call  p\(incarnation) hands the step-up's redirect in again -> \(replayed)")
        if case .success = replayed {
            ledger.violation("step-up-once", "p\(incarnation) took a step-up's redirect twice")
        }
    }
}
