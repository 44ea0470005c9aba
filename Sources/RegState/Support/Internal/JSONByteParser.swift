import Foundation

/// The strict JSON reader behind ``JSONValue/parse(_:limits:)``: RFC 8259 over UTF-8 bytes, stricter where security
/// asks (docs/Internals-Toolbox.md lists how). The caller has already checked the size limit.
struct JSONByteParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var index = 0

    /// Parses `bytes` as one JSON value, as a `Result` for callers inside `withUnsafeBytes` (the JWT reader's entry).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Result<JSONValue, JSONParseError> {
        var parser = JSONByteParser(bytes: bytes, maximumDepth: maximumDepth)
        return Result { () throws(JSONParseError) in
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.index == bytes.count else { throw .trailingData(offset: parser.index) }
            return value
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw .unexpectedEnd }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw .unexpectedByte(offset: index)
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw .unexpectedEnd }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] {
            throw .unexpectedByte(offset: index + offset)
        }
        index += count
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        guard index < bytes.count else { throw .unexpectedEnd }
        guard bytes[index] == byte else { throw .unexpectedByte(offset: index) }
        index += 1
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw .tooDeep(limit: maximumDepth) }
        index += 1
        var members: [String: JSONValue] = [:]
        // Claims sets and headers hold a handful to a few dozen members: start big enough to skip most regrowth.
        members.reserveCapacity(16)
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd }
            guard bytes[index] == UInt8(ascii: "\"") else { throw .unexpectedByte(offset: index) }
            let name = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let member = try value(depth: depth)
            if members.updateValue(member, forKey: name) != nil { throw .duplicateMember(String(name.prefix(64))) }
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw .unexpectedByte(offset: index)
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw .tooDeep(limit: maximumDepth) }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw .unexpectedByte(offset: index)
            }
        }
    }

    /// A number per RFC 8259 §6; integers of up to 15 digits are read directly, the rest through `Double(_:)`.
    private mutating func number() throws(JSONParseError) -> Double {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count else { throw .unexpectedEnd }
        var integer: Int64 = 0
        var digits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            digits = 1
        } else {
            guard isDigit(bytes[index]) else { throw .unexpectedByte(offset: index) }
            while index < bytes.count, isDigit(bytes[index]) {
                if digits < 18 { integer = integer * 10 + Int64(bytes[index] &- 0x30) }
                digits += 1
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try digitRun()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try digitRun()
        }
        if isInteger, digits <= 15 { return negative ? -Double(integer) : Double(integer) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw .numberOutOfRange(offset: start) }
        return value
    }

    private mutating func digitRun() throws(JSONParseError) {
        guard index < bytes.count else { throw .unexpectedEnd }
        guard isDigit(bytes[index]) else { throw .unexpectedByte(offset: index) }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// A string; `index` is at the opening quote. Unescaped runs are copied as they are, after UTF-8 validation.
    private mutating func string() throws(JSONParseError) -> String {
        let start = index
        index += 1
        var runStart = index
        var isASCII = true
        // Fast path: no escapes, so the content is the bytes between the quotes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                if !isASCII, !UTF8Validation.isValid(run) { throw .invalidString(offset: start) }
                index += 1
                return String(decoding: run, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw .invalidString(offset: start) }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(index - runStart + 16)
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index += 1
                guard UTF8Validation.isValid(buffer) else { throw .invalidString(offset: start) }
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                try escape(into: &buffer, stringStart: start)
                runStart = index
            case 0..<0x20:
                throw .invalidString(offset: start)
            default:
                index += 1
            }
        }
        throw .unexpectedEnd
    }

    /// One escape sequence; `index` is at the backslash.
    private mutating func escape(into buffer: inout [UInt8], stringStart: Int) throws(JSONParseError) {
        index += 1
        guard index < bytes.count else { throw .unexpectedEnd }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad(stringStart: stringStart)
            if (0xD800...0xDBFF).contains(scalar) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw .invalidString(offset: stringStart) }
                index += 2
                let low = try hexQuad(stringStart: stringStart)
                guard (0xDC00...0xDFFF).contains(low) else { throw .invalidString(offset: stringStart) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw .invalidString(offset: stringStart)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .invalidString(offset: stringStart) }
            UTF8.encode(unicode) { buffer.append($0) }
        default:
            throw .invalidString(offset: stringStart)
        }
    }

    private mutating func hexQuad(stringStart: Int) throws(JSONParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw .unexpectedEnd }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = HexDigit.value(bytes[index]) else { throw .invalidString(offset: stringStart) }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
