import Foundation

/// The one range check for every time and lifetime RegState reads from disk or from the wire.
///
/// A record or an answer is data from outside: a damaged file, a hostile one, a provider with a bug. A time of 1e308
/// or -1e308 is a valid JSON number and a valid `Double`, and `Date` holds it, but turning it into whole seconds or a
/// calendar date traps (`Int(_:)`, `time_t(_:)`). So every reading goes through here, where the number is read: an
/// instant is a finite number of seconds between 1970 and the end of year 9999 (``latest``), a lifetime a finite
/// number of seconds between 0 and ``latest``, an offset a whole number of seconds no larger than ``latest`` either
/// way. Anything else is the same "unreadable" outcome as any other damage to the record it came in; nothing else is
/// lost. And every instant computed from a lifetime stays in range (``expiry(after:from:)``).
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

    /// The whole seconds since 1970 of `date`, for printing and calendar arithmetic; `nil` when the date is out of
    /// range (a reader let it through, or it was computed), so a caller prints a placeholder instead of trapping.
    package static func wholeSeconds(_ date: Date) -> Int? {
        guard let seconds = self.date(date.timeIntervalSince1970)?.timeIntervalSince1970.rounded(.down) else { return nil }
        return Int(seconds)
    }

    /// How a `JSONDecoder` reads every date of a record: seconds since 1970, refused out of range.
    package static let decoding = JSONDecoder.DateDecodingStrategy.custom { decoder in
        let container = try decoder.singleValueContainer()
        let seconds = try container.decode(Double.self)
        guard let date = Self.date(seconds) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a time out of range")
        }
        return date
    }

    /// A decoder for a record RegState wrote: dates as ``decoding`` reads them.
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = decoding
        return decoder
    }
}
