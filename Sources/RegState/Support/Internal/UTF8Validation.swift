import Foundation

/// Well-formed UTF-8 per RFC 3629 / Unicode Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF.
enum UTF8Validation {
    /// Whether `bytes` is well-formed UTF-8, by the standard library's decoder (which refuses exactly those forms).
    static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
