import Foundation

/// Remembers, in memory, a security-token renewal that failed (offline, refused), so that its callers get that
/// failure until a backoff on the injected clock has passed (30 s doubling to 15 min, reset by a renewal that
/// succeeds). A token renewed for a rejection and rejected again is held in the store instead (``RejectionHold``),
/// where every process and every later launch sees it.
///
/// It keeps a digest of the token, never the token.
struct RejectionBackoff: Sendable {
    static let first: TimeInterval = 30
    static let longest: TimeInterval = 900

    private var exhausted: (digest: Int, until: Date)?
    private var delay: TimeInterval = Self.first

    /// Whether the token with this digest is held off at `now`.
    func isExhausted(digest: Int, at now: Date) -> Bool {
        guard let exhausted, exhausted.digest == digest else { return false }
        return now < exhausted.until
    }

    /// Holds off the token with this digest; returns until when.
    @discardableResult
    mutating func holdOff(digest: Int, at now: Date) -> Date {
        let until = now.addingTimeInterval(delay)
        exhausted = (digest, until)
        delay = min(delay * 2, Self.longest)
        return until
    }

    /// A renewed token was accepted: start again from the first backoff.
    mutating func reset() {
        exhausted = nil
        delay = Self.first
    }
}
