import Foundation

/// The one range check for every time and lifetime read from disk or the wire: an instant lies in 1970...``latest``,
/// a lifetime in 0...``latest``, anything else is unreadable (1e308 would trap `Int(_:)`; docs/Internals-Toolbox.md).
package enum RecordedTime {
    /// 9999-12-31T23:59:59Z: the latest instant believed (RFC 3339's last year; also the ID token's bound).
    package static let latest: TimeInterval = 253_402_300_799

    /// The instant `seconds` after 1970, when it is a finite number in `0...latest`.
    package static func date(_ seconds: Double) -> Date? {
        lifetime(seconds).map(Date.init(timeIntervalSince1970:))
    }

    /// `seconds` as a lifetime, when it is a finite number in `0...latest`.
    package static func lifetime(_ seconds: Double) -> TimeInterval? {
        guard seconds.isFinite, seconds >= 0, seconds <= latest else { return nil }
        return seconds
    }

    /// Whether `seconds` is an offset between two clocks that can be believed (and printed).
    package static func isOffset(_ seconds: Int) -> Bool {
        seconds.magnitude <= UInt64(latest)
    }

    /// Whether `date` is in range: what every writer may assume of a date it got from a reader.
    package static func contains(_ date: Date) -> Bool {
        self.date(date.timeIntervalSince1970) != nil
    }

    /// `lifetime` seconds after `now`, never past ``latest`` (nor before 1970).
    package static func expiry(after lifetime: TimeInterval, from now: Date) -> Date {
        let seconds = now.timeIntervalSince1970 + (lifetime.isFinite ? max(0, lifetime) : latest)
        return Date(timeIntervalSince1970: min(max(seconds.isFinite ? seconds : latest, 0), latest))
    }

    /// A decoder for a record RegState wrote: every date in seconds since 1970, refused out of range.
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = Self.date(try container.decode(Double.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a time out of range")
            }
            return date
        }
        return decoder
    }
}
