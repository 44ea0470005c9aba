import Foundation

/// TLS everywhere but loopback: `https` always, `http` only to a loopback host, which never leaves the machine (tests,
/// the interop peers, RFC 8252 loopback redirects); anything else is refused before a request is built.
enum TransportSecurity {
    /// Whether requests may go to `url`.
    static func allows(_ url: URL) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased() else { return false }
        if scheme == "https" { return !(components.host ?? "").isEmpty }
        guard scheme == "http", let host = components.host else { return false }
        return isLoopback(host: host)
    }

    /// Whether `host` names this machine: `localhost`, 127.0.0.0/8 as four decimal octets, or `::1`.
    static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            (1...3).contains(octet.count) && octet.allSatisfy(\.isASCII) && octet.allSatisfy(\.isNumber)
                && (Int(octet) ?? 256) <= 255
        }
    }
}
