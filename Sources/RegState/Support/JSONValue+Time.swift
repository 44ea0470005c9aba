import Foundation

extension JSONValue {
    /// The number as an instant (seconds since 1970), when it is one in ``RecordedTime``'s range: how every time a
    /// peer sends is read (JWT claims, token, ongoing-access and backend answers).
    package var dateValue: Date? { numberValue.flatMap(RecordedTime.date) }

    /// The number, or a numeric string (both occur in the wild), as a lifetime in seconds, when it is one in
    /// ``RecordedTime``'s range: how every `expires_in` a peer sends is read.
    package var lifetimeValue: TimeInterval? {
        switch self {
        case .number(let number): RecordedTime.lifetime(number)
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces)).flatMap(RecordedTime.lifetime)
        default: nil
        }
    }
}
