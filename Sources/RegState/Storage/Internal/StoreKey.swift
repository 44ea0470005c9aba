/// The rule every ``SecureStore`` of the package applies to keys, so a key is a safe file name: 1–200 characters from
/// `A–Z a–z 0–9 . _ -`, no leading dot (dot-files are the store's own).
package enum StoreKey {
    /// The longest key, leaving room in a file name for the temporary-file prefix and suffix.
    static let maximumLength = 200

    /// Whether `key` follows the rule.
    static func isValid(_ key: String) -> Bool {
        guard !key.isEmpty, key.utf8.count <= maximumLength, key.utf8.first != UInt8(ascii: ".") else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// Throws ``StoreError/invalidKey(_:)`` unless `key` follows the rule.
    package static func validate(_ key: String) throws(StoreError) {
        guard isValid(key) else { throw StoreError.invalidKey(key) }
    }
}
