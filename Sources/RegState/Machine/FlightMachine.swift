import Foundation

/// What a renewal answers its callers with: the renewed credential (`nil`: the caller reads the record), or why not.
typealias RenewalAnswer = Result<AccessCredential?, RegStateServiceError>

/// The renewal decisions that need memory, per token kind, as a pure value: idle, running with its waiters, or its
/// last result standing until its ``RejectionHold`` passed; returns actions, keeps token digests, is not journaled.
struct FlightMachine<Waiter> {
    typealias Answer = RenewalAnswer

    /// What a caller that needs a renewal of one kind does.
    enum Admission: Equatable {
        /// Start the renewal (the flight now runs; ``land(_:_:generation:at:)`` ends it).
        case start(generation: Int)
        /// A renewal of this kind is running: wait for its answer (``wait(_:id:_:)``).
        case join
        /// This token's renewal failed a moment ago and its backoff has not passed: that failure is the answer.
        case answer(Answer)
        /// This token's renewal failed, and failed again after its backoff: do not ask again before the next one.
        case exhausted
    }

    private struct Flight {
        /// The renewal running (its generation, the digest of the token it replaces, who waits); `nil`: idle.
        var running: (generation: Int, digest: Int?, waiters: [(id: Int, waiter: Waiter)])?
        /// The last result, for the token it answered, until when it stands, and when it came.
        var settled: (digest: Int?, answer: Answer, until: Date, at: Date)?
        /// The last token held off after a failed renewal, and its hold (the latest of the chain).
        var backoff: (digest: Int?, hold: RejectionHold)?
        /// When the user's "retry" or the host's "connectivity is back" last cut a stored transient hold short.
        var lastCut: Date?
    }

    private var access = Flight()
    private var security = Flight()
    private var generation = 0
    private var waiterCount = 0
    /// The last four tokens a server rejected (callers may report an older one's rejection after the current one's).
    private var rejected: [Int] = []

    init() {}

    private subscript(kind: TokenCarrier) -> Flight {
        get { kind == .accessToken ? access : security }
        set { if kind == .accessToken { access = newValue } else { security = newValue } }
    }

    // MARK: Asking

    /// Admits a caller that needs `kind` renewed because `token` expired or was rejected (`nil`: whatever is stored).
    /// One renewal per kind at a time: a second flight would orphan the first one's waiters and spend a rotation twice.
    mutating func admit(_ kind: TokenCarrier, replacing token: String?, at now: Date) -> Admission {
        if self[kind].running != nil { return .join }
        let digest = token?.hashValue
        if kind == .securityToken {
            // A settled failure answers its token's callers until its hold ends; not after the clock was set back
            // since it came (its times no longer measure from now: seed 10090006337).
            if let settled = security.settled, settled.digest == digest, now < settled.until, now >= settled.at,
               settled.until.timeIntervalSince(now) <= RejectionHold.longest {
                return .answer(settled.answer)
            }
            if let last = security.backoff, last.digest == digest {
                let hold = last.hold.clamped(at: now)
                security.backoff = (digest, hold)
                if hold.holds(at: now) { return .exhausted }
            }
            security.settled = nil
        }
        return .start(generation: begin(kind, digest: digest))
    }

    /// Marks `kind` running for a renewal no caller was admitted to (the launch's), unless one runs; its generation.
    @discardableResult
    mutating func begin(_ kind: TokenCarrier, replacing token: String? = nil) -> Int {
        if let running = self[kind].running { return running.generation }
        return begin(kind, digest: token?.hashValue)
    }

    private mutating func begin(_ kind: TokenCarrier, digest: Int?) -> Int {
        generation += 1
        self[kind].running = (generation, digest, [])
        return generation
    }

    mutating func nextWaiter() -> Int {
        waiterCount += 1
        return waiterCount
    }

    /// `waiter` waits for the running renewal of `kind` (under `id`); when none runs, the answer it left is returned.
    mutating func wait(_ kind: TokenCarrier, id: Int, _ waiter: Waiter) -> Answer? {
        guard self[kind].running != nil else { return self[kind].settled?.answer ?? .failure(.noSession) }
        self[kind].running?.waiters.append((id, waiter))
        return nil
    }

    /// A waiter that stopped waiting (its caller was cancelled): it is returned, to be answered with the cancellation.
    mutating func cancel(_ kind: TokenCarrier, id: Int) -> Waiter? {
        guard let index = self[kind].running?.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return self[kind].running?.waiters.remove(at: index).waiter
    }

    /// Whether a renewal of `kind` runs (in host mode: the host was told and has not answered).
    func isRunning(_ kind: TokenCarrier) -> Bool { self[kind].running != nil }

    /// How many callers wait for the renewal of `kind` now.
    func waiting(_ kind: TokenCarrier) -> Int { self[kind].running?.waiters.count ?? 0 }

    // MARK: Landing

    /// The renewal of `kind` landed with `answer`: every waiter to answer with it. `generation`: the flight it ends
    /// (`nil`: whichever runs). A security token's failure stands until its backoff has passed.
    mutating func land(_ kind: TokenCarrier, _ answer: Answer, generation: Int? = nil, at now: Date) -> [Waiter] {
        guard let running = self[kind].running, generation.map({ $0 == running.generation }) ?? true else { return [] }
        self[kind].running = nil
        self[kind].settled = (running.digest, answer, now, now)
        if kind == .securityToken {
            switch answer {
            case .success:
                security.settled = (running.digest, answer, .distantFuture, now)
                security.backoff = nil
            case .failure:
                let hold = RejectionHold.after(security.backoff?.hold, at: now)
                security.backoff = (running.digest, hold)
                security.settled = (running.digest, answer, hold.until, now)
            }
        }
        return running.waiters.map(\.waiter)
    }

    /// The session ended: every waiter of every kind, to fail with `error`.
    mutating func sessionEnded(_ error: RegStateServiceError, at now: Date) -> [Waiter] {
        land(.accessToken, .failure(error), at: now) + land(.securityToken, .failure(error), at: now)
    }

    // MARK: Holds

    /// When a stored transient hold of `kind` was last cut short here (``RenewalHoldPolicy``'s `lastCut`).
    func lastCut(_ kind: TokenCarrier) -> Date? { self[kind].lastCut }

    /// A renewal of `kind` cut the stored transient hold short at `now`.
    mutating func noteCut(_ kind: TokenCarrier, at now: Date) { self[kind].lastCut = now }

    /// Whether the stored transient hold `hold` of `kind` may be cut short now (once per backoff step; noted).
    mutating func cutShort(_ kind: TokenCarrier, _ hold: RejectionHold?, policy: RenewalHoldPolicy, at now: Date) -> Bool {
        guard self[kind].running == nil,
              case .cutShort = policy.decide(hold, at: now, cutShort: true, lastCut: self[kind].lastCut) else { return false }
        self[kind].lastCut = now
        if case .failure? = self[kind].settled?.answer { self[kind].settled = nil }
        self[kind].backoff = nil
        return true
    }

    // MARK: Rejections

    /// A server rejected `token`: a renewal replacing it stores the new token with a ``RejectionHold``.
    mutating func noteRejection(of token: String) {
        let digest = token.hashValue
        guard !rejected.contains(digest) else { return }
        rejected.append(digest)
        if rejected.count > 4 { rejected.removeFirst() }
    }

    /// Whether a renewal replacing `token` renews for a rejection.
    func isRejected(_ token: String?) -> Bool { token.map { rejected.contains($0.hashValue) } ?? false }
}
