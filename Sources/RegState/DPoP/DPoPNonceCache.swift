import Foundation

/// The latest `DPoP-Nonce` each origin gave (RFC 9449 §8, §9), for the next proof there; one over
/// ``maximumNonceLength`` bytes or outside `NQCHAR` (§8.1) is refused, never stored or echoed.
package final class DPoPNonceCache: Sendable {
    /// The longest nonce RegState accepts, in bytes.
    package static let maximumNonceLength = 512

    private let nonces = LockedValue<[String: String]>([:])

    package init() {}

    package func nonce(for url: URL) -> String? {
        guard let origin = Self.origin(of: url) else { return nil }
        return nonces.withLock { $0[origin] }
    }

    /// Remembers `header` (a `DPoP-Nonce` value) as `url`'s origin's latest nonce.
    /// - Throws: ``DPoPError/invalidNonce(reason:)`` for an empty, oversized or malformed nonce (nothing stored).
    package func remember(_ header: String, for url: URL) throws(DPoPError) {
        let nonce = try Self.validated(header)
        guard let origin = Self.origin(of: url) else { throw .invalidTargetURL }
        nonces.withLock { $0[origin] = nonce }
    }

    /// How many origins have a nonce remembered (the simulation's memory invariant counts them).
    package var count: Int { nonces.withLock { $0.count } }

    /// Forgets every nonce (logout, a new key).
    package func removeAll() {
        nonces.withLock { $0.removeAll() }
    }

    /// `header` when it is a nonce RFC 9449 §8.1 allows and not absurdly long.
    package static func validated(_ header: String) throws(DPoPError) -> String {
        let bytes = header.utf8
        guard !bytes.isEmpty else { throw .invalidNonce(reason: "empty") }
        guard bytes.count <= maximumNonceLength else {
            throw .invalidNonce(reason: "\(bytes.count) bytes, more than \(maximumNonceLength)")
        }
        for byte in bytes where !(byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)) {
            throw .invalidNonce(reason: "a character outside NQCHAR")
        }
        return header
    }

    /// `scheme://host[:port]`, lowercased.
    static func origin(of url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        return components.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}
