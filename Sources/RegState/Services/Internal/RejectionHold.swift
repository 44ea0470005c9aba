import Foundation

/// The hold on a stored token renewed because a server rejected the one before it (or rejected right after a
/// renewal): a rejection of it is not answered with another renewal before ``until`` (docs/Internals-Services.md).
package struct RejectionHold: Sendable, Equatable {
    /// The first hold.
    package static let first: TimeInterval = 30
    /// The longest hold.
    package static let longest: TimeInterval = 900

    /// Until when a rejection of the token is not answered with a renewal.
    package var until: Date
    /// This hold's length (the next one in the chain is twice as long).
    package var backoff: TimeInterval

    /// A hold until `until`, `backoff` long (as read from a store).
    package init(until: Date, backoff: TimeInterval) {
        self.until = until
        self.backoff = backoff
    }

    /// The hold of a token renewed (or rejected again) at `now`, after a token whose hold was `previous`.
    package static func after(_ previous: RejectionHold?, at now: Date) -> RejectionHold {
        let backoff = previous.map { min(max($0.backoff, first) * 2, longest) } ?? first
        return RejectionHold(until: now.addingTimeInterval(backoff), backoff: backoff)
    }

    /// This hold as it may stand at `now`: ending at most ``backoff`` after `now`.
    package func clamped(at now: Date) -> RejectionHold {
        let latest = now.addingTimeInterval(backoff)
        return until > latest ? RejectionHold(until: latest, backoff: backoff) : self
    }

    /// Whether a rejection at `now` is still held (not answered with a renewal), the hold ``clamped(at:)``.
    package func holds(at now: Date) -> Bool { now < clamped(at: now).until }
}

/// `{"backoff": seconds, "until": seconds}` in the credentials record.
extension RejectionHold: RecordValue {
    var json: JSONValue { .members(["backoff": backoff, "until": until]) }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let fields = try JSONFields(json: json)
        self.init(until: try fields.value("until"), backoff: try RecordedTime.lifetime(fields.value("backoff")).orDamaged())
    }
}
