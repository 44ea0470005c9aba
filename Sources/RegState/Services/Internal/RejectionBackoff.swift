import Foundation

/// Remembers a token that was renewed for a rejection and rejected again, so that a server that keeps rejecting
/// costs one renewal, not one per call (the request policy completed): that token is not renewed again before a backoff on the
/// injected clock has passed, 30 s doubling to 15 min, reset by a renewal the server accepts.
///
/// It keeps a digest of the token, never the token.
struct RejectionBackoff: Sendable {
    static let first: TimeInterval = 30
    static let longest: TimeInterval = 900

    private var exhausted: (digest: Int, until: Date)?
    private var delay: TimeInterval = Self.first

    /// Whether `token` was already renewed for this failure and the backoff has not passed at `now`.
    func isExhausted(_ token: String, at now: Date) -> Bool { isExhausted(digest: token.hashValue, at: now) }

    /// Whether the token with this digest is held off at `now`.
    func isExhausted(digest: Int, at now: Date) -> Bool {
        guard let exhausted, exhausted.digest == digest else { return false }
        return now < exhausted.until
    }

    /// `token` (a renewed one) was rejected again: hold it off until the backoff has passed; the next one doubles.
    @discardableResult
    mutating func holdOff(_ token: String, at now: Date) -> Date { holdOff(digest: token.hashValue, at: now) }

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
