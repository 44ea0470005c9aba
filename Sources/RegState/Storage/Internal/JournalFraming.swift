import Foundation

/// The journal's line format, `<8 hex digits: CRC-32 of payload> <payload>\n`, shared by ``FileJournal``,
/// `InMemoryJournal` (RegStateTesting) and the simulation's checks.
package enum JournalFraming {
    /// The line terminator, which a payload may therefore not contain.
    package static let newline = UInt8(ascii: "\n")

    /// What parsing a journal's bytes found.
    package struct Parsed: Equatable {
        /// The intact payloads, oldest first.
        package var lines: [Data]
        /// How many lines (or a torn tail) failed framing or checksum.
        package var dropped: Int
        /// The end of the last intact line: the length the journal should have.
        package var intactLength: Int
        /// Whether the end of the journal is damaged and should be cut back to ``intactLength``.
        package var hasDamagedTail: Bool
    }

    /// The framed line for `payload`, newline included; ``JournalError/writeFailed(_:)`` when it holds a newline.
    package static func frame(_ payload: Data) throws(JournalError) -> Data {
        guard !payload.contains(newline) else {
            throw JournalError.writeFailed("a journal line may not contain a newline")
        }
        var line = Data(CRC32.hex(payload).utf8)
        line.reserveCapacity(payload.count + 10)
        line.append(UInt8(ascii: " "))
        line.append(payload)
        line.append(newline)
        return line
    }

    /// The framed lines for `payloads`, concatenated; ``JournalError/writeFailed(_:)`` when one holds a newline.
    package static func frame(lines payloads: [Data]) throws(JournalError) -> Data {
        var result = Data()
        for payload in payloads { result.append(try frame(payload)) }
        return result
    }

    /// Splits `data` into lines and checks each one.
    package static func parse(_ data: Data) -> Parsed {
        let bytes = [UInt8](data)
        var lines: [Data] = []
        var dropped = 0
        var intactLength = 0
        var start = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: newline) else {
                dropped += 1  // A torn tail: no newline after it.
                break
            }
            if let payload = payload(of: bytes[start..<end]) {
                lines.append(payload)
                intactLength = end + 1
            } else {
                dropped += 1
            }
            start = end + 1
        }
        return Parsed(lines: lines, dropped: dropped, intactLength: intactLength,
                      hasDamagedTail: intactLength < bytes.count)
    }

    /// ``parse(_:)`` of `data`, parsing only what follows `earlier`'s bytes when `data` starts with them and they
    /// ended on an intact line: a journal read before every append then checks each line once.
    package static func parse(_ data: Data, continuing earlier: (bytes: Data, parsed: Parsed)?) -> Parsed {
        guard let earlier, earlier.parsed.dropped == 0, !earlier.parsed.hasDamagedTail,
            data.count >= earlier.bytes.count, data.prefix(earlier.bytes.count) == earlier.bytes
        else { return parse(data) }
        let rest = parse(data.suffix(from: data.startIndex + earlier.bytes.count))
        return Parsed(lines: earlier.parsed.lines + rest.lines, dropped: rest.dropped,
                      intactLength: earlier.bytes.count + rest.intactLength, hasDamagedTail: rest.hasDamagedTail)
    }

    /// The payload of one line (without its newline) when its framing and checksum hold.
    private static func payload(of line: ArraySlice<UInt8>) -> Data? {
        guard line.count >= 9 else { return nil }
        let checksumEnd = line.startIndex + 8
        guard line[checksumEnd] == UInt8(ascii: " ") else { return nil }
        var expected: UInt32 = 0
        for byte in line[line.startIndex..<checksumEnd] {
            guard let digit = HexDigit.value(byte) else { return nil }
            expected = expected << 4 | UInt32(digit)
        }
        let payload = line[(checksumEnd + 1)...]
        guard CRC32.checksum(payload) == expected else { return nil }
        return Data(payload)
    }
}
