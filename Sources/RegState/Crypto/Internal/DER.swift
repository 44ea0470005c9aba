import Foundation

/// Just enough ASN.1 DER to move RSA public keys between the JWK form (modulus, exponent) and the PKCS #1
/// `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }` libcrypto and Security import.
package enum DER {
    package static let integerTag: UInt8 = 0x02
    package static let sequenceTag: UInt8 = 0x30

    /// The PKCS #1 `RSAPublicKey` encoding of a modulus and exponent (both big-endian, unsigned).
    package static func rsaPublicKey(modulus: Data, exponent: Data) -> Data {
        sequence(integer(unsigned: modulus) + integer(unsigned: exponent))
    }

    /// A DER INTEGER holding `bytes` read as an unsigned big-endian number.
    package static func integer(unsigned bytes: Data) -> Data {
        var content = Array(bytes.drop { $0 == 0 })
        if content.isEmpty {
            content = [0]
        } else if let first = content.first, first & 0x80 != 0 {
            content.insert(0, at: 0)
        }
        return element(tag: integerTag, content: content)
    }

    /// A DER SEQUENCE around already-encoded elements.
    package static func sequence(_ content: Data) -> Data {
        element(tag: sequenceTag, content: Array(content))
    }

    /// A reader over the elements inside `der` when `der` is exactly one SEQUENCE; `nil` otherwise.
    package static func sequenceContent(_ der: Data) -> Reader? {
        var outer = Reader(Array(der))
        guard let body = outer.element(tag: sequenceTag), outer.isAtEnd else { return nil }
        return Reader(body)
    }

    /// A DER element of tag `tag` around `content`.
    package static func element(tag: UInt8, content: [UInt8]) -> Data {
        var out = Data([tag])
        out.append(contentsOf: length(content.count))
        out.append(contentsOf: content)
        return out
    }

    private static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        let bytes = withUnsafeBytes(of: count.bigEndian) { Array($0.drop { $0 == 0 }) }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// Reads tag-length-value elements from a byte buffer, rejecting anything that runs past its end.
    package struct Reader {
        private let bytes: [UInt8]
        private var position = 0

        package init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// Whether every byte has been consumed.
        package var isAtEnd: Bool { position == bytes.count }

        /// The content of the next element when it has tag `tag` and a well-formed definite length.
        package mutating func element(tag: UInt8) -> [UInt8]? {
            guard position < bytes.count, bytes[position] == tag else { return nil }
            var cursor = position + 1
            guard cursor < bytes.count else { return nil }
            let first = bytes[cursor]
            cursor += 1
            var length = 0
            if first < 0x80 {
                length = Int(first)
            } else {
                let lengthBytes = Int(first & 0x7F)
                guard lengthBytes > 0, lengthBytes <= 4, cursor + lengthBytes <= bytes.count else { return nil }
                for byte in bytes[cursor..<(cursor + lengthBytes)] {
                    length = length << 8 | Int(byte)
                }
                cursor += lengthBytes
            }
            guard length <= bytes.count - cursor else { return nil }
            position = cursor + length
            return Array(bytes[cursor..<position])
        }
    }
}
