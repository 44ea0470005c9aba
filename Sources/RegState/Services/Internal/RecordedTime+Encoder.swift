import Foundation

extension RecordedTime {
    /// The encoder of the records RegState writes through `Codable` (a grant's pending record; the journal and the
    /// credentials record have their own form, ``RecordValue``): keys sorted, slashes as they are, dates as seconds
    /// since 1970 (what ``decoder()`` reads back).
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }
}
