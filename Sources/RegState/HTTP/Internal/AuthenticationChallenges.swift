import Foundation

/// The one reader of a `WWW-Authenticate` field (RFC 9110 §11.6.1), strict, on UTF-8 bytes: anything outside the
/// grammar (over ``maximumLength``, a control byte, a parameter twice) makes the whole field `nil`, never a part.
struct AuthenticationChallenges: Sendable, Equatable {
    /// One challenge.
    struct Challenge: Sendable, Equatable {
        /// The scheme, lowercased (`bearer`, `dpop`).
        var scheme: String
        /// Its parameters by lowercased name, values unescaped (none for a token68, which nothing reads).
        var parameters: [String: String]
    }

    /// The longest field read (bytes): a server's challenge is a line, not a document.
    static let maximumLength = 8_192

    /// The challenges, in order.
    let challenges: [Challenge]

    /// The challenges of `field`; `nil` when it is not a well-formed field.
    init?(_ field: String) {
        let bytes = Array(field.utf8)
        guard bytes.count <= Self.maximumLength else { return nil }
        var reader = Reader(bytes: bytes)
        guard let challenges = reader.challenges(), !challenges.isEmpty else { return nil }
        self.challenges = challenges
    }

    /// The first challenge of `scheme` (case-insensitive) whose `error` is `error`.
    func first(schemes: Set<String>, error: String) -> Challenge? {
        challenges.first { schemes.contains($0.scheme) && $0.parameters["error"] == error }
    }

    /// The byte-level grammar.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        /// A letter, a digit or one of `symbols` (a `token`'s by default; a `token68` has `-._~+/`).
        static func isTokenByte(_ byte: UInt8, symbols: String = "!#$%&'*+-.^_`|~") -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default: symbols.utf8.contains(byte)
            }
        }

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8? { atEnd ? nil : bytes[index] }

        mutating func skipSpaces(andCommas: Bool = false) {
            while let byte = current, byte == 0x20 || byte == 0x09 || andCommas && byte == UInt8(ascii: ",") {
                index += 1
            }
        }

        mutating func token() -> String? {
            let start = index
            while let byte = current, Self.isTokenByte(byte) { index += 1 }
            guard index > start else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func quoted() -> String? {
            guard current == UInt8(ascii: "\"") else { return nil }
            index += 1
            var value: [UInt8] = []
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: value, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = current, escaped == 0x09 || escaped >= 0x20, escaped != 0x7F else { return nil }
                    value.append(escaped)
                    index += 1
                case 0x09, 0x20...0x7E, 0x80...0xFF: value.append(byte)
                default: return nil
                }
            }
            return nil
        }

        /// Whether the next token (after spaces) is followed by `=` that is not the end of a token68: a parameter.
        func startsParameter() -> Bool {
            var probe = self
            probe.skipSpaces()
            guard probe.token() != nil else { return false }
            probe.skipSpaces()
            guard probe.current == UInt8(ascii: "=") else { return false }
            probe.index += 1
            probe.skipSpaces()
            return probe.current != nil && probe.current != UInt8(ascii: ",") && probe.current != UInt8(ascii: "=")
        }

        mutating func challenges() -> [Challenge]? {
            var result: [Challenge] = []
            skipSpaces(andCommas: true)
            while !atEnd {
                guard let scheme = token() else { return nil }
                var challenge = Challenge(scheme: scheme.lowercased(), parameters: [:])
                let spaced = current == 0x20 || current == 0x09
                skipSpaces()
                if spaced, let byte = current, byte != UInt8(ascii: ",") {
                    if startsParameter() {
                        guard parameters(into: &challenge) else { return nil }
                    } else {
                        let start = index
                        while let byte = current, Self.isTokenByte(byte, symbols: "-._~+/") { index += 1 }
                        while current == UInt8(ascii: "=") { index += 1 }
                        guard index > start, byte != UInt8(ascii: "=") else { return nil }
                        skipSpaces()
                        guard atEnd || current == UInt8(ascii: ",") else { return nil }
                    }
                } else if !atEnd, current != UInt8(ascii: ",") {
                    return nil
                }
                result.append(challenge)
                skipSpaces(andCommas: true)
            }
            return result
        }

        /// `name=value` pairs until the field ends or a comma is followed by the next challenge's scheme.
        mutating func parameters(into challenge: inout Challenge) -> Bool {
            while true {
                skipSpaces()
                guard let name = token()?.lowercased() else { return false }
                skipSpaces()
                guard current == UInt8(ascii: "=") else { return false }
                index += 1
                skipSpaces()
                guard let value = current == UInt8(ascii: "\"") ? quoted() : token() else { return false }
                guard challenge.parameters.updateValue(value, forKey: name) == nil else { return false }
                skipSpaces()
                if atEnd { return true }
                guard current == UInt8(ascii: ",") else { return false }
                // After a comma: another parameter of this challenge, or the next challenge (left for the caller).
                var probe = self
                probe.skipSpaces(andCommas: true)
                if probe.atEnd { index = probe.index; return true }
                guard probe.startsParameter() else { return true }
                index = probe.index
            }
        }
    }
}
