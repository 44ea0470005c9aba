import Foundation
import RegState

/// The simulator's `Date` header, written as the engine reads it (``ProviderClockEstimate/parseHTTPDate(_:)``).
extension ProviderClockEstimate {
    /// Formats `date` as an IMF-fixdate, whole seconds rounded down; years outside 1...9999 are clamped.
    package static func httpDate(_ date: Date) -> String {
        let limit = 253_402_300_799.0  // 9999-12-31T23:59:59Z
        let seconds = Int64(min(max(date.timeIntervalSince1970, -62_135_596_800), limit).rounded(.down))
        // Years 1...9999 are within `gmtime_r`'s range on every platform RegState builds for.
        guard let parts = RecordedTime.calendarFields(seconds) else { preconditionFailure("gmtime_r refused \(seconds)") }
        let two = { (value: Int32) in RecordedTime.padded(value) }
        return "\(Self.dayNames[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(Self.monthNames[Int(parts.tm_mon)]) "
            + "\(RecordedTime.padded(parts.tm_year + 1900, width: 4)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
