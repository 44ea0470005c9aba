import Foundation

/// An RSA public key as a JWK carries it: big-endian modulus and exponent, without leading zero bytes.
public struct RSAPublicKey: Sendable, Hashable, Codable {
    /// The modulus `n`, big-endian.
    public var modulus: Data
    /// The public exponent `e`, big-endian.
    public var exponent: Data

    /// Creates a key from its modulus and exponent; leading zero bytes are stripped.
    public init(modulus: Data, exponent: Data) {
        self.modulus = Data(modulus.drop { $0 == 0 })
        self.exponent = Data(exponent.drop { $0 == 0 })
    }

    /// The modulus length in bits.
    public var bitCount: Int {
        guard let first = modulus.first else { return 0 }
        return (modulus.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }
}
