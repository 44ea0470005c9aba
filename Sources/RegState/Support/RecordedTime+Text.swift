import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordedTime {
    /// The text every output prints for an instant out of range (only a date an app built itself can be).
    package static let outOfRangeText = "(time out of range)"

    /// ISO 8601 in UTC, to the second (`2026-11-24T13:38:27Z`), from the C library's calendar arithmetic (format
    /// styles would load time-zone and locale data); a date out of range is ``outOfRangeText``, never a trap.
    package static func text(_ date: Date) -> String {
        guard let seconds = self.date(date.timeIntervalSince1970)?.timeIntervalSince1970.rounded(.down),
              let parts = calendarFields(Int64(seconds)) else { return outOfRangeText }
        return "\(padded(parts.tm_year + 1900, width: 4))-\(padded(parts.tm_mon + 1))-\(padded(parts.tm_mday))T"
            + "\(padded(parts.tm_hour)):\(padded(parts.tm_min)):\(padded(parts.tm_sec))Z"
    }

    /// The UTC calendar fields of `seconds` since 1970, from the C library's `gmtime_r`; `nil` outside its range.
    package static func calendarFields(_ seconds: Int64) -> tm? {
        var time = time_t(seconds)
        var parts = tm()
        return gmtime_r(&time, &parts) != nil ? parts : nil
    }

    /// `value` in decimal, zero-padded to `width` digits.
    package static func padded(_ value: Int32, width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
