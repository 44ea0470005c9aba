import Foundation

/// Well-formed UTF-8 per RFC 3629 / Unicode Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF.
enum UTF8Validation {
    /// Whether `bytes` is well-formed UTF-8.
    static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        while let lead = iterator.next() {
            if lead < 0x80 { continue }
            let continuation: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: continuation = 1
            case 0xE0: continuation = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: continuation = 2
            case 0xED: continuation = 2; upper = 0x9F
            case 0xF0: continuation = 3; lower = 0x90
            case 0xF1...0xF3: continuation = 3
            case 0xF4: continuation = 3; upper = 0x8F
            default: return false
            }
            for position in 0..<continuation {
                guard let byte = iterator.next() else { return false }
                if position == 0 {
                    guard (lower...upper).contains(byte) else { return false }
                } else {
                    guard (0x80...0xBF).contains(byte) else { return false }
                }
            }
        }
        return true
    }
}
