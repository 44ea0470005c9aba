import Foundation

/// The one reader of `Retry-After` (RFC 9110 §10.2.3), for every endpoint the engine calls, on 429 and 503 answers
/// only. Delta-seconds, or an IMF-fixdate measured against the same answer's `Date` header (the server's clock, so a
/// device whose clock is wrong waits the time the server meant; without `Date` it is not used). Every wait is capped
/// at ``cap``, so a hostile day-long value never locks a session out.
package enum RetryAfter {
    /// The longest wait a server can impose with `Retry-After`: one hour (a longer outage is met by the backoff).
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
