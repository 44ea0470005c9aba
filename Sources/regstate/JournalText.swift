import Foundation
import RegState
import RegStateTesting

/// The journal as `regstate events` prints it: sequence, ISO 8601 time, event name and the event's redacted details
/// (``MachineEvent/redactedDetails``: email addresses masked; events hold no token material by construction).
enum JournalText {
    /// "#3 2025-01-01T10:00:00Z authenticated {...}".
    static func human(_ entry: JournalEntry) -> String {
        var line = "#\(entry.sequence) \(EventText.timestamp(entry.recordedAt)) \(entry.event.name)"
        if let details = entry.event.redactedDetails {
            line += " " + String(decoding: details.serialized(), as: UTF8.self)
        }
        return line
    }

    /// `{"seq":3,"at":"…","event":"authenticated","details":{…}}`.
    static func json(_ entry: JournalEntry) -> JSONValue {
        var object: [String: JSONValue] = ["seq": .number(Double(entry.sequence)),
                                           "at": .string(EventText.timestamp(entry.recordedAt)),
                                           "event": .string(entry.event.name)]
        if let details = entry.event.redactedDetails { object["details"] = details }
        return .object(object)
    }
}
