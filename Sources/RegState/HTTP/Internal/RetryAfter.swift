import Foundation

/// The one reader of `Retry-After` (RFC 9110 §10.2.3), on 429 and 503 only: a date is measured against the answer's
/// `Date` (the server's clock, not the device's), and every wait is capped, so a hostile value never locks one out.
package enum RetryAfter {
    /// The longest wait a server can impose with `Retry-After`: one hour (a longer outage is met by the backoff).
    package static let cap: TimeInterval = 3600

    /// The wait `response` asks for, in whole seconds rounded up (0 up to ``cap``); `nil` when it is not a 429 or 503,
    /// carries no `Retry-After`, or carries one that is not either form.
    package static func seconds(in response: HTTPResponse) -> Int? {
        guard response.status == 429 || response.status == 503,
              let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces), !value.isEmpty
        else { return nil }
        if value.utf8.allSatisfy({ (48...57).contains($0) }) {
            // Delta-seconds: more digits than the cap has are the cap (no overflow on a hostile value).
            guard value.utf8.count <= 9, let seconds = Int(value) else { return Int(cap) }
            return min(seconds, Int(cap))
        }
        guard let until = ProviderClockEstimate.parseHTTPDate(value),
              let sent = response.header("Date").flatMap(ProviderClockEstimate.parseHTTPDate) else { return nil }
        return Int(min(max(0, until.timeIntervalSince(sent)), cap).rounded(.up))
    }
}
