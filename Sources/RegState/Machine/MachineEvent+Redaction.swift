import Foundation

extension MachineEvent {
    /// The event's data as JSON for people and bug reports, with every email address masked (`a***@example.com`);
    /// `nil` when the event carries none. Events hold no token material by construction, so this is the whole
    /// redaction a journal needs before it is shown or shipped.
    public var redactedDetails: JSONValue? {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(self), case .object(let wrapper)? = try? JSONValue.parse(data),
              let payload = wrapper.values.first
        else { return nil }
        let details = Self.redact(Self.unwrap(payload))
        if case .object(let fields) = details, fields.isEmpty { return nil }
        return details
    }

    /// `alice@example.com` → `a***@example.com`, wherever an address occurs in `text`.
    public static func maskEmails(in text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard let at = word.firstIndex(of: "@"), at > word.startIndex,
                  word[word.index(after: at)...].utf8.contains(UInt8(ascii: "."))
            else { return String(word) }
            let local = word[..<at]
            let leading = local.prefix { character in  // ASCII without Unicode's tables
                character.asciiValue.map { !(($0 | 0x20) &- 0x61 < 26 || $0 &- 0x30 < 10) }
                    ?? (!character.isLetter && !character.isNumber)
            }
            let first = local.dropFirst(leading.count).prefix(1)
            return leading + first + "***" + word[at...]
        }
        return words.joined(separator: " ")
    }

    private static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(maskEmails(in: text))
        case .array(let items): .array(items.map(redact))
        case .object(let fields): .object(fields.mapValues(redact))
        case .null, .bool, .number: value
        }
    }

    /// Replaces single-member `_0` objects (Codable's unlabeled associated values) with their content, and names an
    /// unlabeled value beside labeled ones (`renewalFailed`'s failure) `value`: no `_0` is ever shown.
    private static func unwrap(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var fields):
            if fields.count == 1, let only = fields["_0"] { return unwrap(only) }
            if let unlabeled = fields.removeValue(forKey: "_0") { fields["value"] = unlabeled }
            return .object(fields.mapValues(unwrap))
        case .array(let items): return .array(items.map(unwrap))
        case .null, .bool, .number, .string: return value
        }
    }
}
