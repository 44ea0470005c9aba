import Foundation
import RegState
import RegStateSimulator

/// The rejecting world (``SimulationWorld/rejectingBackend``): a self-renewing world whose backend API answers `401`
/// to every token, live or not, for the whole run, while users keep calling it from every process, processes crash
/// and relaunch, and time passes. The API takes the provider's access token or (drawn per seed) the backend security
/// token; the backend retires a replaced security token. ``RejectionAudit`` judges every renewal the rejections cause
/// (`rejection-hold`); the run checks the security tokens left live at the backend (`live-security-tokens`); the
/// common invariants check that no session is lost to it (`logout-rules`: a rejection never ends a session;
/// `session-honoured`). A rejection the engine holds is never held longer than its backoff from now
/// (`rejection-hold-bound`), however the clock moved since the hold was written (a day back, now and then).
extension SimulationRun {
    /// The backend's security-token lifetime in this world (30 days).
    static let rejectingWorldSecurityTokenLifetime: TimeInterval = 30 * 86_400

    /// The carrier of the world of `seed` (from a stream of its own).
    static func rejectedCarrier(for seed: UInt64) -> TokenCarrier {
        var random = SeededRandom(seed: seed ^ 0x7A3C_51E9_0B26_D48F)
        return random.chance(50) ? .accessToken : .securityToken
    }

    /// The backend rejects every token from now on; the API takes the audit's carrier.
    func prepareRejectingBackend() async {
        guard let audit = rejectionAudit else { return }
        await simulator.setResourceTakesSecurityToken(audit.carrier == .securityToken)
        await simulator.setResourceRejectsEveryToken(true)
        // Security tokens that outlive the run: a replaced token left live is still counted at the end.
        await simulator.reconfigure { $0.securityTokenLifetime = Self.rejectingWorldSecurityTokenLifetime }
        ledger.note("world backend rejects every token; the API takes the \(audit.carrier.rawValue)")
    }

    /// The policy of the app's API in this world: the security token to the backend, or the access token.
    func rejectingWorldPolicy(backend: URL) -> TokenPolicy? {
        guard let audit = rejectionAudit else { return nil }
        return audit.carrier == .securityToken
            ? TokenPolicy(validatingURLs: [SimulatorConfiguration().issuer], securityTokenURLs: [backend])
            : TokenPolicy(validatingURLs: [backend.appendingPathComponent("v1/resource")])
    }

    /// Callers call the API (each call may renew once for its rejection, as the hold allows), and so does the
    /// backend's rejection; "renew now" is a caller too here (an explicit renewal ignores holds by design, and would
    /// blur what the world measures). The provider's revocation, the backend's forced logout and clear-state are
    /// launches of the app instead: the world keeps one session alive across many launches, so that the cost of the
    /// rejections adds up (a user's logout still happens, and a registration after it).
    func performRejecting(_ action: SimulationAction) async -> Bool {
        switch action {
        case .callers(let index, let count):
            ledger.note("act   \(count) caller(s) call the rejecting API on slot \(index)")
            for _ in 0..<count { explicitRenewals += 1; callAPI(index) }
        case .renewNow(let index), .backendRejects(let index):
            ledger.note("act   a caller calls the rejecting API on slot \(index)")
            explicitRenewals += 1
            callAPI(index)
        case .revoke(let index), .forcedLogout(let index), .clearState(let index):
            await launch(index, reason: "app launch")
        default:
            return false
        }
        return true
    }

    /// rejection-hold-bound: a call the engine held (``RegStateServiceError/rejectionHeld(until:)``, nothing renewed)
    /// was held until at most the hold's backoff after `now`, the clock when the call returned (it only moved forward
    /// during the call): the stored hold's backoff when the record still holds that hold, else the longest (15 min).
    static func checkHoldBound(_ until: Date, now: Date, record: Data?, carrier: TokenCarrier, ledger: Ledger) {
        var backoff = RejectionHold.longest
        let key = carrier == .accessToken ? "access_token_hold" : "security_token_hold"
        if let record, let hold = (try? JSONValue.parse(record))?[key],
           let stored = hold["until"]?.numberValue, let seconds = hold["backoff"]?.numberValue,
           abs(stored - until.timeIntervalSince1970) < 0.001 {
            backoff = seconds
        }
        let ahead = until.timeIntervalSince(now)
        if ahead > backoff + RejectionAudit.slack {
            ledger.violation("rejection-hold-bound", "a rejection of the \(carrier.rawValue) was held \(Int(ahead)) s "
                             + "ahead, longer than its \(Int(backoff)) s backoff from now")
        }
    }

    /// live-security-tokens: after the heal, the backend holds one live security token for the session, plus one for
    /// each replaced token nobody could retire — a security-token request that got no answer from the backend (an
    /// exchange whose answer was lost, a retirement that never arrived), a process that ended between receiving a
    /// new token and retiring the old one, a registration that replaced a live token (a new session retires nothing),
    /// a write that failed.
    func checkRejectionCost() async {
        guard let audit = rejectionAudit else { return }
        let live = await simulator.liveSecurityTokenCount(for: email)
        let explained = 1 + audit.unansweredSecurityRequests + audit.unretiredExplained + ledger.diskMishapCount
        ledger.note("check rejecting backend: \(audit.renewals) renewal(s) for rejections, longest chain "
                    + "\(audit.longestChain), \(live) live security token(s) (at most \(explained))")
        if live > explained {
            ledger.violation("live-security-tokens", "\(live) security tokens live at the backend; at most \(explained) "
                             + "explained (1 + \(audit.unansweredSecurityRequests) unanswered + "
                             + "\(audit.unretiredExplained) left by ended processes or registrations + "
                             + "\(ledger.diskMishapCount) failed writes)")
        }
    }
}
