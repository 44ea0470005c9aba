import Foundation
import RegState

/// Which data an ongoing-access session may read: a time range (the ongoing-access design's "Scoping"). `nil` bounds are open.
public struct OngoingAccessScope: Sendable, Equatable, Codable {
    /// The earliest data included, or `nil` for no lower bound.
    public var from: Date?
    /// The latest data included, or `nil` for no upper bound.
    public var to: Date?

    /// Creates a scope; both bounds are inclusive.
    public init(from: Date? = nil, to: Date? = nil) {
        self.from = from
        self.to = to
    }

    /// Everything.
    public static let all = OngoingAccessScope()

    /// Whether `date` lies in the range.
    public func contains(_ date: Date) -> Bool {
        (from.map { date >= $0 } ?? true) && (to.map { date <= $0 } ?? true)
    }

    /// The scope as a request claim: `{"from": seconds|null, "to": seconds|null}`.
    public var json: JSONValue {
        ["from": from.map { .number($0.timeIntervalSince1970.rounded(.down)) } ?? .null,
         "to": to.map { .number($0.timeIntervalSince1970.rounded(.down)) } ?? .null]
    }

    /// Reads ``json``'s form back; `nil` when `value` is not that form.
    public init?(json value: JSONValue?) {
        guard let object = value?.objectValue else { return nil }
        func bound(_ name: String) -> Date?? {
            switch object[name] {
            case nil, .null?: return .some(nil)
            case .number(let seconds)?: return RecordedTime.date(seconds).map { .some($0) }
            default: return nil
            }
        }
        guard let from = bound("from"), let to = bound("to") else { return nil }
        self.init(from: from, to: to)
    }
}
