import Foundation

/// A URL reduced to what decides where a request goes (scheme, host, effective port, path segments; RFC 3986
/// §6.2.2), so a request and a ``TokenPolicy`` prefix compare as a server routes them (<doc:RequestPolicy>).
struct NormalizedURL: Equatable, Sendable {
    /// `http` or `https`.
    var scheme: String
    /// The host, lowercased.
    var host: String
    /// The port, explicit or the scheme's default.
    var port: Int
    /// The path's segments after normalisation; a trailing empty segment stands for a trailing slash.
    var segments: [String]
    /// Whether the path holds something a server might decode into another path: it then matches no prefix.
    var isUnsafe: Bool

    /// Normalises `url`; `nil` for a URL that is not `http`/`https` with a host.
    init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.percentEncodedHost?.lowercased(), !host.isEmpty, !host.contains("%")
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
        var unsafe = false
        var decoded: [String] = []
        for raw in components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let segment = Self.decodingUnreserved(raw) else {
                unsafe = true
                decoded.append(String(raw))
                continue
            }
            decoded.append(segment)
        }
        self.segments = Self.removingDotSegments(decoded, unsafe: &unsafe)
        self.isUnsafe = unsafe
    }

    /// Whether this URL is `prefix` or below it (same origin, the prefix's segments leading this path's: `/v1` covers
    /// `/v1/x`, not `/v10`); an unsafe path is under nothing, an unsafe prefix covers nothing.
    func isUnder(_ prefix: NormalizedURL) -> Bool {
        guard !isUnsafe, !prefix.isUnsafe, hasSameOrigin(as: prefix) else { return false }
        var wanted = prefix.segments
        if wanted.last == "" { wanted.removeLast() }
        var have = segments
        if have.last == "", have.count > wanted.count { have.removeLast() }
        return have.count >= wanted.count && Array(have.prefix(wanted.count)) == wanted
    }

    /// Whether `other` is the same origin (scheme, host, effective port).
    func hasSameOrigin(as other: NormalizedURL) -> Bool {
        scheme == other.scheme && host == other.host && port == other.port
    }

    /// `segment` with unreserved escapes decoded and the other escapes' hex uppercased; `nil` when it holds a
    /// malformed escape or an escaped `/`, `\` or `%`.
    private static func decodingUnreserved(_ segment: Substring) -> String? {
        let bytes = Array(segment.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                result.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = HexDigit.value(bytes[index + 1]),
                  let low = HexDigit.value(bytes[index + 2])
            else { return nil }
            let value = high << 4 | low
            if value == UInt8(ascii: "/") || value == UInt8(ascii: "\\") || value == UInt8(ascii: "%") { return nil }
            // Only an unreserved character's escape can be decoded without changing the meaning.
            if FormEncoding.unreserved.contains(Unicode.Scalar(value)) {
                result.append(value)
            } else {
                result.append(contentsOf: Array(String(format: "%%%02X", value).utf8))
            }
            index += 3
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// RFC 3986 §5.2.4 over segments: `.` dropped, `..` removes the segment before it (never above the root). A dot
    /// segment with parameters (`..;x`), which some servers treat as a dot segment, marks the path unsafe.
    private static func removingDotSegments(_ input: [String], unsafe: inout Bool) -> [String] {
        var output: [String] = []
        for (position, segment) in input.enumerated() {
            let isLast = position == input.count - 1
            let bare = segment.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if bare != segment, bare == "." || bare == ".." { unsafe = true }
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return output
    }
}
