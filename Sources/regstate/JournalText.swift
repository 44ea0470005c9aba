import Foundation
import RegState

/// The journal as `regstate events` prints it: sequence, ISO 8601 time, event name and details, with every email
/// address masked (`a***@example.com`). Journal events hold no token material by construction.
enum JournalText {
    /// "#3 2025-01-01T10:00:00Z authenticated {...}".
    static func human(_ entry: JournalEntry) -> String {
        var line = "#\(entry.sequence) \(EventText.timestamp(entry.recordedAt)) \(entry.event.name)"
        if let details = details(of: entry.event) {
            line += " " + String(decoding: details.serialized(), as: UTF8.self)
        }
        return line
    }

    /// `{"seq":3,"at":"…","event":"authenticated","details":{…}}`.
    static func json(_ entry: JournalEntry) -> JSONValue {
        var object: [String: JSONValue] = ["seq": .number(Double(entry.sequence)),
                                           "at": .string(EventText.timestamp(entry.recordedAt)),
                                           "event": .string(entry.event.name)]
        if let details = details(of: entry.event) { object["details"] = details }
        return .object(object)
    }

    /// The event's associated values as JSON, tidied (`_0` wrappers removed) and redacted; `nil` when it has none.
    static func details(of event: MachineEvent) -> JSONValue? {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(event), let value = try? JSONValue.parse(data),
              case .object(let wrapper) = value, let payload = wrapper.values.first
        else { return nil }
        let tidy = redact(unwrap(payload))
        if case .object(let fields) = tidy, fields.isEmpty { return nil }
        return tidy
    }

    /// Masks every email address inside `value`'s strings.
    static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(maskEmails(in: text))
        case .array(let items): .array(items.map(redact))
        case .object(let fields): .object(fields.mapValues(redact))
        case .null, .bool, .number: value
        }
    }

    /// `alice@example.com` → `a***@example.com`, wherever an address occurs in `text`.
    static func maskEmails(in text: String) -> String {
        guard text.contains("@") else { return text }
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard let at = word.firstIndex(of: "@"), at > word.startIndex,
                  word[word.index(after: at)...].contains(".")
            else { return String(word) }
            let local = word[..<at]
            let leading = local.prefix { !$0.isLetter && !$0.isNumber }
            let first = local.dropFirst(leading.count).prefix(1)
            return leading + first + "***" + word[at...]
        }
        return words.joined(separator: " ")
    }

    /// Replaces single-member `_0` objects (Codable's unlabeled associated values) with their content.
    private static func unwrap(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let fields):
            if fields.count == 1, let only = fields["_0"] { return unwrap(only) }
            return .object(fields.mapValues(unwrap))
        case .array(let items): return .array(items.map(unwrap))
        case .null, .bool, .number, .string: return value
        }
    }
}
