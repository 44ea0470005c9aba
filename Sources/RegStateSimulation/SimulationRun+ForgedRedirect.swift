import Foundation
import RegState
import RegStateTesting

/// The forged-redirect world (``SimulationWorld/forgedRedirect``): a self-renewing world in which every social
/// registration meets up to ``maxForgeries`` forged redirects (each a ``RedirectForgery``) before the
/// genuine one, and now and then the app is relaunched in the middle, so that the genuine redirect reaches a new
/// process that knows the login only from the store. Invariants, checked as each redirect is handed in:
/// - `forged-refused`: a forged redirect is refused and makes no token request (``ForgeryAudit`` watches the wire);
/// - `forged-never-ends`: no refusal ends the login, however many came (never `tooManyRefusedRedirects`, never a
///   refusal that does not keep the login, unless the redirect could not be checked for a transient reason);
/// - `genuine-completes`: after any number of forged redirects, the genuine redirect completes the login — unless the
///   network or the disk failed it, or a logout or clear-state ended the login meanwhile;
/// - `superseded-refused`: now and then another process begins its own login while this one's is pending (an app and
///   its extension, two launches): the newer login supersedes the older, whose redirect is refused, and taking the
///   older never removes the newer one's record, whose redirect then completes (`genuine-completes`).
extension SimulationRun {
    /// What the world's registrations did, for the end-of-run note.
    struct ForgeryTally {
        var logins = 0
        var forged = 0
        var relaunched = 0
        var discarded = 0
        var completed = 0
        var superseded = 0
    }

    /// A login another process began while one was pending: the newer one, which supersedes it.
    struct CompetingLogin {
        let slot: Int
        let incarnation: Int
        let genuine: URL
    }

    /// The most forged redirects before a genuine one: past the three that once ended a login.
    static let maxForgeries = 6

    /// The registration of the forged-redirect world on slot `index`, run to its end before the next action.
    func registerPastForgeries(_ index: Int) async {
        guard var service = slots[index].service, let audit = forgeryAudit else { return }
        let mishaps = ledger.diskMishapCount
        ledger.note("act   user registers on slot \(index), forged redirects first")
        // A logout or clear-state that returns from here on may have ended this login: one still in flight when the
        // registration began reaches the store after its pending login was written (seed 10200003087: a clear-state
        // asked for a step earlier removed it before the first forged redirect was handed in).
        let traced = ledger.trace.count
        loggedOut = false
        registrationsInFlight += 1
        grantCapableCalls += 1
        defer { registrationsInFlight -= 1 }
        let genuine: URL
        do {
            let url = try await service.beginSocialRegistration()
            genuine = try await simulator.authorize(url, as: email)
        } catch {
            return ledger.note("call  p\(slots[index].incarnation) register -> did not begin (\(error))")
        }
        forgeryTally.logins += 1
        let forgeries = worldRandom.below(Self.maxForgeries + 1)
        let relaunchBefore: Int? = worldRandom.chance(40) ? worldRandom.below(forgeries + 1) : nil
        // A relaunch forgets the login held in memory, and the new process would take whichever login is stored.
        let competing = relaunchBefore == nil ? await beginCompetingLogin(besides: index) : nil
        var uncounted = 0
        for attempt in 0...forgeries {
            if attempt == relaunchBefore {
                await launch(index, reason: "relaunch while a login is pending")
                forgeryTally.relaunched += 1
                guard let relaunched = slots[index].service else { return }
                service = relaunched
                // Another process registered meanwhile: the relaunch found its session, and the login is moot.
                if case .active = await service.state {
                    return ledger.note("check p\(slots[index].incarnation) launched into another process's session: "
                                       + "the login is moot")
                }
            }
            let incarnation = slots[index].incarnation
            let forgery = attempt < forgeries ? RedirectForgery.allCases[worldRandom.below(RedirectForgery.allCases.count)] : nil
            let callback = forgery.flatMap { $0.apply(to: genuine) } ?? genuine
            let what = forgery.map { "a forged redirect (\($0.rawValue))" } ?? "the genuine redirect"
            if forgery != nil { audit.watch(incarnation, handed: what) }
            let outcome: Result<Void, any Error>
            do {
                _ = try await service.completeSocialRegistration(callback: callback)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            audit.stopWatching()
            let kept = disk.peek("pending_login") != nil ? "a login pending on disk" : "no login on disk"
            ledger.note("call  p\(incarnation) completes with \(what) -> \(Self.describe(outcome)); "
                        + "\(Self.describe(await service.state)), \(kept)")
            guard liveness.isAlive(incarnation) else { return }
            // A redirect refused for a transient reason (the provider's metadata unreachable) could not be checked.
            let failure = Self.failure(of: outcome)
            if let failure, forgery != nil, !failure.keepsAttempt(of: .authorizationCode), failure != .tooManyRefusedRedirects,
               Self.uncheckable(failure) {
                uncounted += 1
            }
            let excused = ledger.diskMishapCount != mishaps || endedMeanwhile(since: traced)
                || uncounted > 0
            if let forgery {
                forgeryTally.forged += 1
                if case .success = outcome {
                    ledger.violation("forged-refused", "p\(incarnation) took a forged redirect (\(forgery.rawValue))")
                    return
                }
                if let failure, !failure.keepsAttempt(of: .authorizationCode), !Self.uncheckable(failure), !excused {
                    forgeryTally.discarded += 1
                    ledger.violation("forged-never-ends", "p\(incarnation)'s refusal \(attempt + 1) of a forged "
                                     + "redirect ended the login: \(Self.describe(outcome))")
                    return
                }
                continue
            }
            switch outcome {
            case .success where competing != nil && !excused:
                ledger.violation("superseded-refused", "p\(incarnation) completed a login that slot "
                                 + "\(competing?.slot ?? 0)'s newer login superseded")
            case .success:
                forgeryTally.completed += 1
                _ = try? await service.confirmRegistration()
            case .failure(let error) where !excused && Self.lostLogin(error):
                ledger.violation("genuine-completes", "p\(incarnation)'s genuine redirect after \(forgeries) forged "
                                 + "one(s) found no login: \(error)")
            case .failure:
                _ = try? await service.retryRegistration()
            }
            if let competing { await completeCompetingLogin(competing, mishaps: mishaps, traced: traced) }
        }
    }

    /// Now and then (when another slot's process is in D) that process begins its own login, newer than the one on
    /// slot `index`.
    func beginCompetingLogin(besides index: Int) async -> CompetingLogin? {
        guard worldRandom.chance(30),
              let other = slots.indices.first(where: { $0 != index && slots[$0].service != nil }),
              let service = slots[other].service, await service.state == .registrationRequired else { return nil }
        do {
            let url = try await service.beginSocialRegistration()
            let genuine = try await simulator.authorize(url, as: email)
            ledger.note("act   slot \(other) begins its own login meanwhile")
            return CompetingLogin(slot: other, incarnation: slots[other].incarnation, genuine: genuine)
        } catch {
            ledger.note("call  p\(slots[other].incarnation) register -> did not begin (\(error))")
            return nil
        }
    }

    /// The newer login's genuine redirect, once the older one's came: it completes (`genuine-completes`) unless the
    /// network or the disk failed it, or a logout or clear-state ended it.
    func completeCompetingLogin(_ competing: CompetingLogin, mishaps: Int, traced: Int) async {
        guard slots[competing.slot].incarnation == competing.incarnation, liveness.isAlive(competing.incarnation),
              let service = slots[competing.slot].service else { return }
        let outcome: Result<Void, any Error>
        do {
            _ = try await service.completeSocialRegistration(callback: competing.genuine)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        ledger.note("call  p\(competing.incarnation) completes its own login -> \(Self.describe(outcome))")
        forgeryTally.superseded += 1
        switch outcome {
        case .success:
            _ = try? await service.confirmRegistration()
        case .failure(let error):
            let excused = ledger.diskMishapCount != mishaps || endedMeanwhile(since: traced)
            if Self.lostLogin(error), !excused, liveness.isAlive(competing.incarnation) {
                ledger.violation("genuine-completes", "p\(competing.incarnation)'s newer login found no login after "
                                 + "the older one's redirect: \(error)")
            }
            _ = try? await service.retryRegistration()
        }
    }

    /// The genuine redirect failed because the login was gone or taken for another's: what a forged redirect must
    /// never cause (a network or disk failure is not that).
    static func lostLogin(_ error: any Error) -> Bool {
        switch failure(of: .failure(error)) {
        case .noPendingLogin, .stateMismatch, .tooManyRefusedRedirects, .issuerMismatchInCallback, .malformedCallback:
            return true
        default:
            return false
        }
    }

    /// Whether a refusal says the redirect could not be checked for a transient reason (the provider's metadata out of
    /// reach, a store that could not be read): the login is left as it was, and nothing is claimed about it.
    static func uncheckable(_ failure: RegistrationFailure) -> Bool {
        switch failure {
        case .transient, .providerUnreachable, .discoveryFailed, .malformedResponse, .storage, .rateLimited: true
        default: false
        }
    }

    /// The registration failure `outcome` reports, if it is one.
    static func failure(of outcome: Result<Void, any Error>) -> RegistrationFailure? {
        guard case .failure(let error) = outcome, case .registration(let failure)? = error as? RegStateServiceError else { return nil }
        return failure
    }

    /// Whether a logout, forced logout or clear-state may have ended the login in progress: one returned since the
    /// trace held `traced` lines, or one is still running. A call the world made before the login began may reach
    /// the engine only while the redirect's code is exchanged (seed 8220005634: a clear-state spawned a step before
    /// the registration wiped it, as a clear-state arriving then must); it is not done when the redirect is judged.
    func endedMeanwhile(since traced: Int) -> Bool {
        func ending(_ call: String) -> Bool {
            call.contains(" logout") || call.contains(" clearState") || call.contains(" forcedLogout")
        }
        return ledger.trace.dropFirst(traced).contains { $0.contains("call  p") && ending($0) }
            || pendingCalls.open.contains(where: ending)
    }

    static func describe(_ outcome: Result<Void, any Error>) -> String {
        switch outcome {
        case .success: "accepted"
        case .failure(let error): "refused (\(error))"
        }
    }

    /// The end-of-run note: how many logins met how many forged redirects.
    func checkForgeries() {
        guard forgeryAudit != nil else { return }
        let tally = forgeryTally
        ledger.note("check forged redirects: \(tally.logins) login(s), \(tally.forged) forged redirect(s) refused, "
                    + "\(tally.relaunched) relaunch(es) mid-login, \(tally.discarded) ended by a refusal, "
                    + "\(tally.completed) completed, \(tally.superseded) newer login(s) begun meanwhile")
    }
}
