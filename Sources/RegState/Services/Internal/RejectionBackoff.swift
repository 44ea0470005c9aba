import Foundation

/// Remembers, in memory, a security-token renewal that failed (offline, refused), so that its callers get that
/// failure until a backoff has passed: the doubling chain of ``RejectionHold``, started again by a renewal that
/// succeeds. It keeps a digest of the token, never the token.
struct RejectionBackoff: Sendable {
    /// The token held off last (its digest) and its hold, the latest of the chain.
    private var last: (digest: Int, hold: RejectionHold)?

    /// Whether the token with this digest is held off at `now`; a hold reaching further than its backoff from now (the
    /// clock was set back since) is cut to it here too.
    mutating func isExhausted(digest: Int, at now: Date) -> Bool {
        guard let current = last, current.digest == digest else { return false }
        let hold = current.hold.clamped(at: now)
        last = (digest, hold)
        return hold.holds(at: now)
    }

    /// Holds off the token with this digest; returns until when.
    @discardableResult
    mutating func holdOff(digest: Int, at now: Date) -> Date {
        let hold = RejectionHold.after(last?.hold, at: now)
        last = (digest, hold)
        return hold.until
    }

    /// A renewed token was accepted: start again from the first backoff.
    mutating func reset() {
        last = nil
    }
}
