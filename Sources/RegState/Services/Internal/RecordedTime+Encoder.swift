import Foundation

extension RecordedTime {
    /// The encoder of the records RegState writes through `Codable` (a grant's pending record; not the journal or the
    /// credentials record, ``RecordValue``): keys sorted, slashes as they are, dates as ``decoder()`` reads them.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }
}
