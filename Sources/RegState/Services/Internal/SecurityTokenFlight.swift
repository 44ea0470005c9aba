import Foundation

/// The single flight of the backend security token, in both modes: the first caller whose token the backend
/// rejected starts a renewal (self mode: a new exchange; host mode: the one notice to the host), every later caller
/// for the same token waits for it, and the result is handed to all of them.
///
/// The flight is a ``SingleFlight`` whose answer comes from outside it: the self-mode renewal, the host's
/// ``RegStateService/updateToken(idToken:)`` (``finish(_:)``) or the session's end (``fail(_:)``). A cancelled caller
/// stops waiting at once; a result that lands before a caller began to wait is kept for its token.
actor SecurityTokenFlight {
    /// What a caller whose security token was rejected should do.
    enum Admission: Equatable {
        /// Start the renewal (only the first caller for this token).
        case start
        /// A renewal for this token is under way or done: wait for its result.
        case wait
        /// This token's renewal failed; do not ask again before the backoff.
        case exhausted
    }

    typealias Answer = Result<String, RegStateServiceError>

    private let clock: any RegStateClock
    private let flight = SingleFlight<Answer>()
    /// The digest of the token whose renewal is pending, where its answer goes, and the flight that hands it out.
    private var pending: (digest: Int, answer: OnceValue<Answer>, flight: Task<Answer, Never>)?
    /// The last result, for the token it answered, and when a failure came; a failure stands until the backoff has
    /// passed.
    private var settled: (digest: Int, result: Answer, until: Date, at: Date)?
    private var backoff = RejectionBackoff()
    /// How many callers wait for the renewal now.
    private(set) var waiting = 0
    /// When the user's "retry" or the host's "connectivity is back" last cut the stored transient hold short.
    private var lastCut: Date?
    /// The self-mode renewal the first caller started (``run(_:)``): the flight owns it, and it goes with the flight.
    private var renewal: Task<Void, Never>?

    init(clock: any RegStateClock) {
        self.clock = clock
    }

    deinit { renewal?.cancel() }

    /// Runs the self-mode renewal the first caller was admitted to start (``Admission/start``). It is the flight's,
    /// not a child of that caller: a cancelled caller must not cancel the renewal the others wait for.
    func run(_ work: @escaping @Sendable () async -> Void) {
        renewal = Task { await work() }
    }

    /// Whether a renewal is pending (host mode: the host was told and has not answered).
    var isPending: Bool { pending != nil }

    /// Admits a caller whose `token` was rejected.
    func admit(rejected token: String) -> Admission {
        let digest = token.hashValue
        let now = clock.now()
        // One renewal at a time: a caller whose token differs from the pending one's waits for that renewal's newer
        // token (a second flight here would orphan the first one's waiters).
        if pending != nil { return .wait }
        // A settled failure answers its token's callers until its hold ends, never longer than the longest hold from
        // now (the clock may have been set back since).
        // Not after the clock was set back since it came: its times (a held rejection's `until`) no longer measure
        // from now, and a new attempt reads the hold from the store, cut to its backoff (seed 10090006337: a
        // `rejectionHeld` 842 s ahead handed out again, its hold's backoff 60 s).
        if let settled, settled.digest == digest, now < settled.until, now >= settled.at,
           settled.until.timeIntervalSince(now) <= RejectionHold.longest { return .wait }
        if backoff.isExhausted(digest: digest, at: now) { return .exhausted }
        let answer = OnceValue<Answer>()
        pending = (digest, answer, flight.start { await answer.value })
        settled = nil
        return .start
    }

    /// Waits for the renewal of `token`: its result when it already landed, otherwise until ``finish(_:)``.
    func wait(for token: String) async throws(RegStateServiceError) -> String {
        if let settled, settled.digest == token.hashValue, pending?.digest != token.hashValue {
            return try settled.result.get()
        }
        guard let pending else {
            // The renewal this caller was admitted to wait for (another token's, pending then) landed between the
            // admission and now: its result is this caller's too.
            if let settled { return try settled.result.get() }
            throw .noSession
        }
        waiting += 1
        defer { waiting -= 1 }
        let answer: Answer
        do {
            answer = try await SingleFlight.value(of: pending.flight)
        } catch {
            throw .cancelled
        }
        return try answer.get()
    }

    /// The renewal's result: every waiter gets it, and so does a caller of the same token that comes later.
    func finish(_ result: Answer) {
        if let pending {
            switch result {
            case .success: settled = (pending.digest, result, .distantFuture, .distantPast)
            // A failure (offline, ended) answers this token's callers until the backoff has passed, then the next
            // rejection asks again.
            case .failure:
                let now = clock.now()
                settled = (pending.digest, result, backoff.holdOff(digest: pending.digest, at: now), now)
            }
        }
        let answer = pending?.answer
        pending = nil
        if case .success = result { backoff.reset() }
        answer?.resolve(result)
    }

    /// Whether the stored transient hold `hold` may be cut short now (``RenewalHoldPolicy``: at most once per backoff
    /// step, however often the user taps "retry"). When it may, the cut is noted and the failure this flight keeps for
    /// its callers is forgotten, so the next caller starts one exchange.
    func cutShort(_ hold: RejectionHold?, policy: RenewalHoldPolicy) -> Bool {
        let now = clock.now()
        guard pending == nil, case .cutShort = policy.decide(hold, at: now, cutShort: true, lastCut: lastCut) else {
            return false
        }
        lastCut = now
        if let settled, case .failure = settled.result { self.settled = nil }
        backoff.reset()
        return true
    }

    /// Ends a pending renewal without a token (the session ended or the host reported an issue); nothing when none
    /// is pending.
    func fail(_ error: RegStateServiceError) {
        guard pending != nil else { return }
        finish(.failure(error))
    }
}
