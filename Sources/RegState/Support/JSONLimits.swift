import Foundation

/// The bounds a JSON text is read under: its size in bytes and how deep objects and arrays may nest.
///
/// Every security-relevant reading has a documented maximum, so hostile input costs bounded memory and time:
/// - ``responseBody``: 1 MiB, depth 32 — token, discovery, userinfo and other provider answers.
/// - ``keySet``: 256 KiB, depth 16 — a JWKS (room for dozens of keys with certificate chains).
/// - ``joseSegment``: 16 KiB, depth 16 — a decoded JOSE header or JWT claims set (the compact token itself is
///   limited to ``JSONWebToken/maximumCompactLength``).
package struct JSONLimits: Sendable, Equatable {
    /// The longest input accepted, in bytes.
    package var maximumBytes: Int
    /// The deepest nesting of objects and arrays accepted (a scalar is depth 0, `{}` is depth 1).
    package var maximumDepth: Int

    /// Creates limits.
    package init(maximumBytes: Int, maximumDepth: Int) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }

    /// Provider answers (token, discovery, userinfo, revocation metadata): 1 MiB, depth 32.
    package static let responseBody = JSONLimits(maximumBytes: 1 << 20, maximumDepth: 32)
    /// A JWK Set: 256 KiB, depth 16.
    package static let keySet = JSONLimits(maximumBytes: 256 << 10, maximumDepth: 16)
    /// A JOSE header or JWT claims set: 16 KiB, depth 16.
    package static let joseSegment = JSONLimits(maximumBytes: 16 << 10, maximumDepth: 16)
}
