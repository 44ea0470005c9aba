import Foundation

/// Lifetimes as descriptions show them: a whole number of seconds when it fits an `Int`, the number as it is
/// otherwise. A lifetime comes from a provider or a backend, so it can be anything a JSON number can be; converting it
/// with `Int(_:)` would trap at 2^63 and beyond.
enum SecondsText {
    /// `seconds` as text, never trapping.
    static func describe(_ seconds: TimeInterval) -> String {
        if let whole = Int(exactly: seconds.rounded(.towardZero)) { return String(whole) }
        return String(seconds)
    }
}
