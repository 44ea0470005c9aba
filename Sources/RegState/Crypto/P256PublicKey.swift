import Foundation

/// A P-256 public key as a JWK carries it (RFC 7518 §6.2.1): the point's `x` and `y`, 32 big-endian bytes each.
public struct P256PublicKey: Sendable, Hashable {
    /// The x coordinate, 32 bytes.
    public let x: Data
    /// The y coordinate, 32 bytes.
    public let y: Data

    /// Creates a key from its coordinates; `nil` unless both are exactly 32 bytes (RFC 7518 §6.2.1.2). The provider
    /// checks that the point lies on the curve when the key is first used.
    public init?(x: Data, y: Data) {
        guard x.count == 32, y.count == 32 else { return nil }
        self.x = x
        self.y = y
    }

    /// The uncompressed SEC 1 point, `04 || x || y`.
    public var uncompressedPoint: Data { Data([0x04]) + x + y }
}
