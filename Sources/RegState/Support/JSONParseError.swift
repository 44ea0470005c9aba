import Foundation

/// Why bytes were refused as JSON by `JSONValue.parse(_:limits:)`: what was wrong and where (a byte offset), never the
/// content, which may be a token. Only a duplicate member's name is kept, cut to 64 characters: it names the mistake.
public enum JSONParseError: Error, Sendable, Equatable {
    /// The input is longer than the limit it was read under; carries that limit in bytes.
    case tooLarge(limit: Int)
    /// Objects and arrays nest deeper than the limit; carries that limit.
    case tooDeep(limit: Int)
    /// An object names the same member twice (RFC 7515 §4, RFC 7519 §4: such input must be rejected).
    case duplicateMember(String)
    /// A number is syntactically valid but does not fit a finite `Double`.
    case numberOutOfRange(offset: Int)
    /// A string holds an invalid escape, an unescaped control character, a lone surrogate or invalid UTF-8.
    case invalidString(offset: Int)
    /// A byte that JSON's grammar does not allow where it stands.
    case unexpectedByte(offset: Int)
    /// The input ends inside a value (or is empty).
    case unexpectedEnd
    /// Something other than whitespace follows the value.
    case trailingData(offset: Int)
}

extension JSONParseError: LocalizedError {
    /// A sentence for people; never contains the input.
    public var errorDescription: String? {
        switch self {
        case .tooLarge(let limit): "The JSON is longer than the \(limit)-byte limit."
        case .tooDeep(let limit): "The JSON nests deeper than \(limit) levels."
        case .duplicateMember(let name): "The JSON object names \"\(name)\" twice."
        case .numberOutOfRange(let offset): "The JSON number at byte \(offset) is out of range."
        case .invalidString(let offset): "The JSON string at byte \(offset) is not valid."
        case .unexpectedByte(let offset): "The JSON is not valid at byte \(offset)."
        case .unexpectedEnd: "The JSON ends too early."
        case .trailingData(let offset): "The JSON has data after its value, at byte \(offset)."
        }
    }
}
