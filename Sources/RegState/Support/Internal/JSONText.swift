import Foundation

/// JSON text byte for byte as `JSONEncoder` writes it with `.sortedKeys` and `.withoutEscapingSlashes` (keys given in
/// order by the caller for ``raw(_:)`` and ``key(_:first:)``; the rules: docs/Internals-Toolbox.md).
struct JSONText {
    var text = ""
    /// Whether `/` is written `\/`, as `JSONEncoder` does without `.withoutEscapingSlashes` (the credentials record).
    var escapesSlashes = false

    mutating func raw(_ part: String) { text += part }

    /// The UTF-8 bytes, copied straight from the string's storage (`Data(text.utf8)` asks the runtime, every time,
    /// whether the view is contiguous bytes: a scan of every conformance record in the process).
    var data: Data {
        var text = text
        return text.withUTF8 { Data(buffer: $0) }
    }

    /// A number as `JSONEncoder` writes a `Double`: its shortest description, without a trailing `.0`.
    mutating func number(_ value: Double) {
        var written = value.description
        if written.hasSuffix(".0") { written.removeLast(2) }
        text += written
    }

    /// A string literal: `"` and `\` escaped, control characters as `\n`-style or `\u00XX` escapes, the rest as is.
    mutating func string(_ value: String) {
        text += "\""
        let slash = escapesSlashes ? UInt8(ascii: "/") : UInt8(ascii: "\"")
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != slash }) {
            text += value
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "/" where escapesSlashes: text += "\\/"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\t": text += "\\t"
                case "\u{08}": text += "\\b"
                case "\u{0C}": text += "\\f"
                case "\u{00}"..."\u{1F}":
                    let hex = Array("0123456789abcdef".utf8)
                    let digits = [hex[Int(scalar.value >> 4)], hex[Int(scalar.value & 0xf)]]
                    text += "\\u00" + String(decoding: digits, as: UTF8.self)
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }

    /// A member `"key":` after a comma unless it is the first of its object.
    mutating func key(_ name: String, first: inout Bool) {
        text += first ? "\"\(name)\":" : ",\"\(name)\":"
        first = false
    }

    /// `value` as `JSONValue`'s `Encodable` conformance writes it; `false`, with the text unfinished, when it holds a
    /// number JSON cannot write (an infinity or NaN), which the encoder refuses.
    mutating func value(_ value: JSONValue) -> Bool {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .number(let number) where !number.isFinite: return false
        case .number(let number):
            if let whole = JSONValue.whole(number) { raw(String(whole)) } else { self.number(number) }
        case .string(let string): self.string(string)
        case .array(let items):
            raw("[")
            for (offset, item) in items.enumerated() {
                raw(offset > 0 ? "," : "")
                guard self.value(item) else { return false }
            }
            raw("]")
        case .object(let members):
            raw("{")
            for (offset, (name, member)) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
                .enumerated() {
                raw(offset > 0 ? "," : ""); string(name); raw(":")
                guard self.value(member) else { return false }
            }
            raw("}")
        }
        return true
    }
}
