import Foundation

/// The IMF-fixdate of RFC 9110 §5.6.7 (`Sun, 06 Nov 1994 08:49:37 GMT`) servers send in `Date`, read with the C
/// library's calendar arithmetic: a `DateFormatter` was the costliest step of reading an answer.
extension ProviderClockEstimate {
    package static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]  // `tm_wday` order
    package static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Parses an IMF-fixdate; `nil` for anything else (the obsolete RFC 850 and asctime forms are not accepted, nor
    /// a day the month does not have).
    package static func parseHTTPDate(_ value: String) -> Date? {
        let b = Array(value.utf8)
        guard b.count == 29, b[3] == UInt8(ascii: ","), b[4] == 32, b[7] == 32, b[11] == 32, b[16] == 32, b[19] == 58,
            b[22] == 58, b[25] == 32, String(decoding: b[26...], as: UTF8.self) == "GMT",
            dayNames.contains(String(decoding: b[0..<3], as: UTF8.self)),
            let monthIndex = monthNames.firstIndex(of: String(decoding: b[8..<11], as: UTF8.self)),
            let day = digits(b[5..<7]), let year = digits(b[12..<16]), let hour = digits(b[17..<19]),
            let minute = digits(b[20..<22]), let second = digits(b[23..<25]),
            year >= 1, day >= 1, day <= daysIn(month: monthIndex + 1, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(monthIndex), Int32(day))
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
