import Foundation

/// The sentence logged when the device clock is found to be off from the provider's.
enum ClockOffsetNote {
    /// "The device clock is 120 s behind the provider's; time claims are checked on the provider's clock." (or
    /// "in step with" when the offset went back to zero).
    static func sentence(_ offset: TimeInterval) -> String {
        let seconds = Int(abs(offset).rounded())
        if seconds == 0 { return "The device clock is in step with the provider's again." }
        let direction = offset > 0 ? "behind" : "ahead of"
        return "The device clock is \(seconds) s \(direction) the provider's; time claims are checked on the "
            + "provider's clock."
    }
}
