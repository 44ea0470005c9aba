import Foundation

/// `application/x-www-form-urlencoded` encoding and decoding, for OAuth requests and the simulator's endpoints.
package enum FormEncoding {
    /// Characters left as they are: the unreserved set of RFC 3986.
    static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes one name or value (a Swift `String` holds no unpaired surrogate, the only thing that fails).
    package static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// Encodes pairs in order as `a=1&b=2`.
    package static func encode(_ parameters: [(String, String)]) -> String {
        parameters.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Decodes `a=1&b=2` (with `+` as space); the last value of a repeated name wins.
    package static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(String(parts[0]))
            let value = parts.count > 1 ? unescape(String(parts[1])) : ""
            result[name] = value
        }
        return result
    }

    private static func unescape(_ text: String) -> String {
        // Most names and values have nothing to undo; Foundation's percent decoding is a visible cost per request.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) { return text }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
