import Foundation

/// The polling schedule of RFC 8628 §3.5 as pure functions of the stored record and the clock's instant (waits,
/// `slow_down`, transient failures, who polls, nothing after expiry; why: `docs/Internals-Grants.md`).
extension PendingDeviceAuthorization {
    /// What the poller does next.
    enum PollStep: Sendable, Equatable {
        /// Send one poll now (after ``reservePoll(at:by:)``).
        case poll
        /// Wait this many seconds, then ask again.
        case wait(TimeInterval)
        /// Become the poller (``claim(at:by:)``), then wait one interval.
        case takeOver
        /// The code has expired: stop, without another poll.
        case expired
    }

    /// The seconds `slow_down` adds to the interval, for that poll and every later one (RFC 8628 §3.5).
    static let slowDownStep: TimeInterval = 5
    /// The interval when the provider sends none (RFC 8628 §3.2).
    static let defaultInterval: TimeInterval = 5
    /// The longest wait a run of transient failures grows to (never shorter than the interval).
    static let maximumBackoff: TimeInterval = 60

    /// How much earlier than its stored expiry a code counts as expired: the expiry is stored as seconds since 1970
    /// and may read back a hair later than the instant it was computed from (simulation seed 939: a poll left at the
    /// provider's expiry to the microsecond, the stored one a rounding later).
    static let expiryMargin: TimeInterval = 0.001

    /// Whether the code has expired at `now` (``expiryMargin`` early): nothing polls, and nothing takes it up.
    func hasExpired(at now: Date) -> Bool {
        now >= verification.expiresAt.addingTimeInterval(-Self.expiryMargin)
    }

    /// The end of the current poller's lease: one interval past its next poll.
    var leaseEnd: Date { notBefore.addingTimeInterval(verification.interval) }

    /// The next step at `now` for the process `me`: expired from the code's expiry on; a wait while another
    /// process's lease lasts, then a take-over; a wait until ``notBefore`` (never past the expiry); or a poll.
    func nextStep(at now: Date, for me: String) -> PollStep {
        let expiresAt = verification.expiresAt
        guard !hasExpired(at: now) else { return .expired }
        if let poller, poller != me {
            guard now >= leaseEnd else { return .wait(min(leaseEnd, expiresAt).timeIntervalSince(now)) }
            return .takeOver
        }
        guard now >= notBefore else { return .wait(min(notBefore, expiresAt).timeIntervalSince(now)) }
        return .poll
    }

    /// `me` becomes the poller at `now`, in place of one whose lease ran out (or of none, before the first poll: then
    /// it may poll at once); its first poll waits one interval from now, after whatever the last one was.
    mutating func claim(at now: Date, by me: String) {
        if poller != nil { notBefore = max(notBefore, now.addingTimeInterval(verification.interval)) }
        poller = me
    }

    /// A poll by `me` leaves at `now`: the next one waits at least the interval.
    mutating func reservePoll(at now: Date, by me: String) {
        poller = me
        notBefore = now.addingTimeInterval(verification.interval)
    }

    /// The provider answered `authorization_pending` at `now`: the next poll waits the interval from the answer.
    mutating func answered(at now: Date) {
        transientFailures = 0
        notBefore = max(notBefore, now.addingTimeInterval(verification.interval))
    }

    /// The provider answered `slow_down` at `now`: five seconds more for the poll it answered and every later one.
    mutating func slowDown(at now: Date) {
        transientFailures = 0
        verification.interval += Self.slowDownStep
        notBefore = max(notBefore.addingTimeInterval(Self.slowDownStep), now.addingTimeInterval(verification.interval))
    }

    /// A poll failed for a transient reason at `now`: the next waits the interval doubled for every failure in a row,
    /// up to ``maximumBackoff`` (never less than the interval), and at least the provider's `Retry-After` when its
    /// 429 or 503 carried one (`retryAfter`, already capped by `RetryAfter`).
    mutating func transientFailure(at now: Date, retryAfter: TimeInterval? = nil) {
        transientFailures = min(transientFailures + 1, 16)
        let doubled = verification.interval * pow(2, Double(transientFailures))
        let backoff = max(verification.interval, min(doubled, Self.maximumBackoff), retryAfter ?? 0)
        notBefore = max(notBefore, now.addingTimeInterval(backoff))
    }

    /// This record with what `other` (the same authorization, read elsewhere) knows more: the longer interval, the
    /// later next poll and the longer run of failures, so a write that failed never makes a poll come sooner.
    func merged(with other: PendingDeviceAuthorization) -> PendingDeviceAuthorization {
        guard other.deviceCode == deviceCode else { return self }
        var merged = self
        merged.verification.interval = max(verification.interval, other.verification.interval)
        merged.notBefore = max(notBefore, other.notBefore)
        merged.transientFailures = max(transientFailures, other.transientFailures)
        return merged
    }
}
