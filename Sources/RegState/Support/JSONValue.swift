import Foundation

/// Any JSON value, for claims, provider responses and simulator state whose shape is not fixed in advance. Numbers
/// are kept as `Double`, which represents every integer a JWT's `exp`/`iat` can hold exactly.
public enum JSONValue: Sendable, Hashable, Codable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any JSON number.
    case number(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case array([JSONValue])
    /// An object keyed by member name.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if let whole = Self.whole(value) { try container.encode(whole) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// `number` as the integer JSON writes for it, when it is whole and below 2^53 (beyond, a `Double` is not exact).
    static func whole(_ number: Double) -> Int64? {
        number.rounded() == number && abs(number) < 9_007_199_254_740_992 ? Int64(number) : nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is a number.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as a whole number, when this is a number with no fractional part.
    public var intValue: Int? {
        numberValue.flatMap(Self.whole).map { Int($0) }
    }

    /// The Boolean, when this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// Parses JSON text into a value, strictly and within `limits`: the one JSON reading for everything a peer sends
    /// that security depends on (duplicate members, non-finite numbers, invalid UTF-8 and lone surrogates refused).
    ///
    /// - Throws: ``JSONParseError`` naming what was wrong and where, never the content.
    package static func parse(_ data: Data, limits: JSONLimits = .responseBody) throws(JSONParseError) -> JSONValue {
        guard data.count <= limits.maximumBytes else { throw .tooLarge(limit: limits.maximumBytes) }
        let result = data.withUnsafeBytes { raw in
            JSONByteParser.parse(raw.bindMemory(to: UInt8.self), maximumDepth: limits.maximumDepth)
        }
        return try result.get()
    }

    /// The value as compact JSON text with sorted keys, so equal values serialise identically: the bytes `JSONEncoder`
    /// writes with `.sortedKeys` and `.withoutEscapingSlashes`, or `null` for a value holding an infinity or NaN.
    package func serialized() -> Data {
        var text = JSONText()
        return text.value(self) ? text.data : Data("null".utf8)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    /// A string literal is a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal is a JSON number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A Boolean literal is a JSON Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A dictionary literal is a JSON object.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// An array literal is a JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}
