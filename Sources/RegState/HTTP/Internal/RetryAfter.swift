import Foundation

/// The one reader of `Retry-After` (RFC 9110 §10.2.3), for every endpoint the engine calls: the provider's and the
/// registration backend's. It is read on 429 and
/// 503 answers only (the statuses whose meaning is "come back later").
///
/// Both forms are read: delta-seconds (`120`), and an IMF-fixdate (`Fri, 31 Dec 1999 23:59:59 GMT`), which is
/// measured against the same answer's `Date` header (the server's own clock, so a device whose clock is wrong waits
/// the time the server meant); a date without a `Date` header beside it is not used. Every wait is capped at
/// ``cap``: a hostile or mistaken day-long value delays renewals by an hour at most, never locks a session out.
package enum RetryAfter {
    /// The longest wait a server can impose with `Retry-After`: one hour. A provider that is down for longer is met
    /// by the backoff (at most five minutes apart: `RenewalHoldPolicy.maximumBackoff`), which costs it one request per
    /// install every five minutes.
    package static let cap: TimeInterval = 3600

    /// The wait `response` asks for, in seconds (0 up to ``cap``); `nil` when it is not a 429 or 503, carries no
    /// `Retry-After`, or carries one that is not either form.
    package static func delay(in response: HTTPResponse) -> TimeInterval? {
        guard response.status == 429 || response.status == 503,
              let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces), !value.isEmpty
        else { return nil }
        if value.utf8.allSatisfy({ (48...57).contains($0) }) {
            // Delta-seconds: more digits than the cap has are the cap (no overflow on a hostile value).
            guard value.utf8.count <= 9, let seconds = Int(value) else { return cap }
            return min(TimeInterval(seconds), cap)
        }
        guard let until = ProviderClockEstimate.parseHTTPDate(value),
              let sent = response.header("Date").flatMap(ProviderClockEstimate.parseHTTPDate) else { return nil }
        return min(max(0, until.timeIntervalSince(sent)), cap)
    }

    /// ``delay(in:)`` in whole seconds, rounded up (the form errors carry).
    package static func seconds(in response: HTTPResponse) -> Int? {
        delay(in: response).map { Int($0.rounded(.up)) }
    }
}
