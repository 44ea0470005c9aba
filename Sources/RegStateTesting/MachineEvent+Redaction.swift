import Foundation
import RegState

extension MachineEvent {
    /// The event's data as JSON for people and bug reports, with every email address masked (`a***@example.com`);
    /// `nil` when the event carries none. Events hold no token material by construction, so this is the whole
    /// redaction a journal needs before it is shown or shipped.
    package var redactedDetails: JSONValue? {
        guard case .object(let wrapper) = json, let payload = wrapper.values.first else { return nil }
        let details = Self.redact(Self.unwrap(payload))
        if case .object(let fields) = details, fields.isEmpty { return nil }
        return details
    }

    /// `alice@example.com` → `a***@example.com`, wherever an address occurs in `text`.
    ///
    /// Anything shaped like `local@host` is an address: a run of non-blank characters with a letter or digit before
    /// an `@` and one after it, dotted or not (`john.smith@corp`, `root@localhost` are masked too). Punctuation
    /// around it stays (`(a***@corp)`); a lone `@` or one with nothing on a side is left as it is, so a hint can be
    /// written as "a name, then @, then a domain".
    package static func maskEmails(in text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let blank = rest.firstIndex(where: Self.isBlank) {
            result += maskedWord(rest[..<blank]) + String(rest[blank])
            rest = rest[rest.index(after: blank)...]
        }
        return result + maskedWord(rest)
    }

    /// One blank-separated word, masked when it is shaped like `local@host`.
    private static func maskedWord(_ word: Substring) -> String {
        guard let at = word.firstIndex(of: "@"),
              word[word.index(after: at)...].contains(where: isAlphanumeric)
        else { return String(word) }
        let local = word[..<at]
        let leading = local.prefix { !isAlphanumeric($0) }
        let first = local.dropFirst(leading.count).prefix(1)
        guard !first.isEmpty else { return String(word) }
        return leading + first + "***" + word[at...]
    }

    /// A letter or digit: ASCII without Unicode's tables, and any other letter or number.
    private static func isAlphanumeric(_ character: Character) -> Bool {
        character.asciiValue.map { ($0 | 0x20) &- 0x61 < 26 || $0 &- 0x30 < 10 }
            ?? (character.isLetter || character.isNumber)
    }

    /// The characters that separate words: space, tab, line breaks, and any other whitespace.
    private static func isBlank(_ character: Character) -> Bool {
        character == " " || character.isWhitespace
    }

    private static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(maskEmails(in: text))
        case .array(let items): .array(items.map(redact))
        case .object(let fields):
            // A time (`expiresAt`, `authenticatedAt`, ...) is shown as ISO 8601, to the second.
            .object(Dictionary(uniqueKeysWithValues: fields.map { key, value in
                (key, (key.hasSuffix("At") ? value.dateValue.map { .string(RecordedTime.text($0)) } : nil) ?? redact(value))
            }))
        case .null, .bool, .number: value
        }
    }

    /// Replaces single-member `_0` objects (an enum case's unlabelled value, as the journal writes it) with their content, and
    /// names an unlabeled value beside labeled ones (`renewalFailed`'s failure) `value`: no `_0` is ever shown.
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
