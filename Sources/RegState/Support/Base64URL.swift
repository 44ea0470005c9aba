import Foundation

/// Base64url without padding (RFC 4648 §5, RFC 7515 §2). Decoding is strict, as a JWS verifier must be: no padding,
/// whitespace, lone character or stray bits, so each byte string has exactly one encoding.
package enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 255 for bytes outside the alphabet, otherwise the 6-bit value.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// Encodes bytes as unpadded base64url text.
    package static func encode(_ data: Data) -> String {
        String(decoding: encodeBytes(data), as: UTF8.self)
    }

    /// Encodes bytes as unpadded base64url, ASCII bytes out.
    package static func encodeBytes(_ data: some Collection<UInt8>) -> [UInt8] {
        let input = Array(data)
        var output: [UInt8] = []
        output.reserveCapacity((input.count * 4 + 2) / 3)
        alphabet.withUnsafeBufferPointer { table in
            var index = 0
            while index + 3 <= input.count {
                let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                output.append(table[Int(chunk >> 18 & 63)])
                output.append(table[Int(chunk >> 12 & 63)])
                output.append(table[Int(chunk >> 6 & 63)])
                output.append(table[Int(chunk & 63)])
                index += 3
            }
            // One or two bytes left make two or three characters.
            let remaining = input.count - index
            guard remaining > 0 else { return }
            let chunk = UInt32(input[index]) << 16 | (remaining == 2 ? UInt32(input[index + 1]) << 8 : 0)
            for shift in stride(from: 18, through: 18 - 6 * remaining, by: -6) {
                output.append(table[Int(chunk >> UInt32(shift) & 63)])
            }
        }
        return output
    }

    /// Decodes strict unpadded base64url text; `nil` when it is not.
    package static func decode(_ text: String) -> Data? {
        var text = text
        return text.withUTF8 { decode(bytes: $0) }.map { Data($0) }
    }

    /// Decodes strict unpadded base64url from ASCII bytes; `nil` for padding, a character outside the alphabet, a
    /// length of 4n+1, or non-zero bits left over in the last character.
    package static func decode(bytes input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let remainder = input.count % 4
        guard remainder != 1 else { return nil }
        var output = [UInt8](repeating: 0, count: input.count / 4 * 3 + max(remainder - 1, 0))
        let valid = values.withUnsafeBufferPointer { table -> Bool in
            output.withUnsafeMutableBufferPointer { out -> Bool in
                var index = 0
                var written = 0
                var bad: UInt8 = 0
                while index + 4 <= input.count {
                    let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])], d = table[Int(input[index + 3])]
                    bad |= a | b | c | d
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    out[written + 2] = UInt8(truncatingIfNeeded: chunk)
                    index += 4
                    written += 3
                }
                // Any value of 64 or more (255 marks a byte outside the alphabet) sets bit 6 or 7.
                guard bad & 0xC0 == 0 else { return false }
                // Two or three characters left make one or two bytes; the bits they leave over must be zero.
                guard remainder >= 2 else { return true }
                let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                let c = remainder == 3 ? table[Int(input[index + 2])] : 0
                guard (a | b | c) & 0xC0 == 0, remainder == 3 ? c & 0x03 == 0 : b & 0x0F == 0 else { return false }
                out[written] = a << 2 | b >> 4
                if remainder == 3 { out[written + 1] = (b & 0x0F) << 4 | c >> 2 }
                return true
            }
        }
        return valid ? output : nil
    }
}
