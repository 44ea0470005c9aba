import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordedTime {
    /// The text every output prints for an instant out of range: never reached from a record or an answer (the
    /// readers refuse those), only from a date an app built itself.
    package static let outOfRangeText = "(time out of range)"

    /// ISO 8601 in UTC, to the second (`2026-11-24T13:38:27Z`), from the calendar arithmetic of the C library (the
    /// format styles would load time-zone and locale data a short command never otherwise touches). The one
    /// formatting of an instant for descriptions and the CLI: a date out of range is ``outOfRangeText``, never a trap.
    package static func text(_ date: Date) -> String {
        guard let whole = wholeSeconds(date) else { return outOfRangeText }
        var seconds = time_t(whole)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return outOfRangeText }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        let padded = String(repeating: "0", count: max(0, 4 - year.count)) + year
        return "\(padded)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):"
            + "\(two(parts.tm_sec))Z"
    }
}
