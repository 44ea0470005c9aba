import Foundation

/// The single flight of the backend security token, in both modes: the first caller whose token the backend
/// rejected starts a renewal (self mode: a new exchange; host mode: the one notice to the host), every later caller
/// for the same token waits for it, and the result is handed to all of them.
///
/// A caller whose task is cancelled stops waiting at once with `CancellationError`; the renewal goes on for the
/// others. A result that lands before a caller began to wait is kept for that token, so no caller waits forever.
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

    private let clock: any RegStateClock
    /// The digest of the token whose renewal is pending, and its waiters.
    private var pending: Int?
    private var waiters: [Int: CheckedContinuation<String, any Error>] = [:]
    private var nextWaiter = 0
    /// The last result, for the token it answered; a failure stands until the backoff has passed.
    private var settled: (digest: Int, result: Result<String, AuthorizationError>, until: Date)?
    private var backoff = RejectionBackoff()

    init(clock: any RegStateClock) {
        self.clock = clock
    }

    /// How many callers wait for the renewal now.
    var waiting: Int { waiters.count }

    /// Whether a renewal is pending (host mode: the host was told and has not answered).
    var isPending: Bool { pending != nil }

    /// Admits a caller whose `token` was rejected.
    func admit(rejected token: String) -> Admission {
        let digest = token.hashValue
        let now = clock.now()
        if pending == digest { return .wait }
        if let settled, settled.digest == digest, now < settled.until { return .wait }
        if backoff.isExhausted(digest: digest, at: now) { return .exhausted }
        pending = digest
        settled = nil
        return .start
    }

    /// Waits for the renewal of `token`: its result when it already landed, otherwise until ``finish(_:)``.
    func wait(for token: String) async throws -> String {
        if let settled, settled.digest == token.hashValue, pending != token.hashValue { return try settled.result.get() }
        guard pending != nil else { throw AuthorizationError.noSession }
        let id = nextWaiter
        nextWaiter += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// The renewal's result: every waiter gets it, and so does a caller of the same token that comes later.
    func finish(_ result: Result<String, AuthorizationError>) {
        if let pending {
            switch result {
            case .success: settled = (pending, result, .distantFuture)
            // A failure (offline, ended) answers this token's callers until the backoff has passed, then the next
            // rejection asks again.
            case .failure: settled = (pending, result, backoff.holdOff(digest: pending, at: clock.now()))
            }
        }
        pending = nil
        if case .success = result { backoff.reset() }
        let all = waiters
        waiters = [:]
        for waiter in all.values { waiter.resume(with: result.mapError { $0 as any Error }) }
    }

    /// Ends a pending renewal without a token (the session ended or the host reported an issue); nothing when none
    /// is pending.
    func fail(_ error: AuthorizationError) {
        guard pending != nil || !waiters.isEmpty else { return }
        finish(.failure(error))
    }

    private func cancel(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }
}
