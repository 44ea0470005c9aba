import Foundation

/// Lifetimes as descriptions show them: whole seconds when they fit an `Int`, else the number as it is (a provider's
/// lifetime can be any JSON number, and `Int(_:)` traps at 2^63).
enum SecondsText {
    /// `seconds` as text, never trapping.
    static func describe(_ seconds: TimeInterval) -> String {
        if let whole = Int(exactly: seconds.rounded(.towardZero)) { return String(whole) }
        return String(seconds)
    }
}
