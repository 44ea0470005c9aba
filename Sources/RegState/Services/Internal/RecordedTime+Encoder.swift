import Foundation

extension RecordedTime {
    /// The encoder of every record and journal line RegState writes through `Codable`: keys sorted, slashes as they
    /// are, dates as seconds since 1970 (what ``decoder()`` reads back).
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }
}
