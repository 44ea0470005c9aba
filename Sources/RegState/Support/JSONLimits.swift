import Foundation

/// The bounds a JSON text is read under (its size in bytes, how deep it nests): every security-relevant reading has
/// one, so hostile input costs bounded memory and time.
package struct JSONLimits: Sendable, Equatable {
    /// The longest input accepted, in bytes.
    package var maximumBytes: Int
    /// The deepest nesting of objects and arrays accepted (a scalar is depth 0, `{}` is depth 1).
    package var maximumDepth: Int

    /// Provider answers (token, discovery, userinfo, revocation metadata): 1 MiB, depth 32.
    package static let responseBody = JSONLimits(maximumBytes: 1 << 20, maximumDepth: 32)
    /// A JWK Set: 256 KiB (room for dozens of keys with certificate chains), depth 16.
    package static let keySet = JSONLimits(maximumBytes: 256 << 10, maximumDepth: 16)
    /// A decoded JOSE header or JWT claims set: 16 KiB, depth 16 (the token: ``JSONWebToken/maximumCompactLength``).
    package static let joseSegment = JSONLimits(maximumBytes: 16 << 10, maximumDepth: 16)
}
