import Foundation

/// CRC-32 as in IEEE 802.3, zlib and PNG (reflected `0xEDB88320`, init and final XOR `0xFFFFFFFF`; `"123456789"` →
/// `0xCBF43926`): the journal's per-line checksum, against torn and corrupted lines, not tampering.
package enum CRC32 {
    /// The 256-entry lookup table for the reflected polynomial.
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = (value & 1) == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    /// The checksum of `bytes`.
    package static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The checksum as 8 lowercase hexadecimal digits, zero-padded.
    package static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let text = String(checksum(bytes), radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }
}
