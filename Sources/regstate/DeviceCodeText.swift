import Foundation
import RegState

/// How a sign-in on another device reads: the code and the page, each on a line of its own, to be read across a room, and the same as
/// `--json` members for a script. Neither holds the device code (the CLI never sees it).
enum DeviceCodeText {
    /// The lines under the event's title.
    static func lines(_ shown: DeviceVerification) -> String {
        var lines = [
            "  On a phone or a computer, open:  \(shown.verificationURI.absoluteString)",
            "  and enter the code:              \(shown.userCode)",
        ]
        if let complete = shown.verificationURIComplete {
            lines.append("  (or open, code included:         \(complete.absoluteString))")
        }
        lines.append("  The code expires at \(EventText.timestamp(shown.expiresAt)).")
        return lines.joined(separator: "\n")
    }

    /// The `--json` members: `userCode`, `verificationURI`, `verificationURIComplete` (when sent), `expiresAt`,
    /// `interval`.
    static func fields(_ shown: DeviceVerification) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "userCode": .string(shown.userCode),
            "verificationURI": .string(shown.verificationURI.absoluteString),
            "expiresAt": .string(EventText.timestamp(shown.expiresAt)),
            "interval": .number(shown.interval),
        ]
        if let complete = shown.verificationURIComplete { object["verificationURIComplete"] = .string(complete.absoluteString) }
        return object
    }
}
