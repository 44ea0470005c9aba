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

/// A P-256 private key: PKCS #8 DER (what libcrypto and CryptoKit import and export) or a reference to a Secure Enclave
/// key, whose private half never leaves it. Its description, debug description and mirror never show the key.
public struct P256PrivateKey: Sendable, Equatable, RedactedDescription {
    /// The PKCS #8 `PrivateKeyInfo` DER encoding; empty for a Secure Enclave key.
    public let pkcs8DER: Data
    /// CryptoKit's `SecureEnclave.P256.Signing.PrivateKey.dataRepresentation` of a key made in the Secure Enclave
    /// (an opaque blob only that device's Secure Enclave can use); `nil` for a software key.
    public let secureEnclaveReference: Data?

    /// Wraps PKCS #8 DER bytes; they are checked when the key is first used.
    public init(pkcs8DER: Data) {
        self.pkcs8DER = pkcs8DER
        secureEnclaveReference = nil
    }

    /// Wraps a Secure Enclave key's data representation; only Apple's provider can use it (elsewhere every use is
    /// ``CryptoError/invalidKey(_:)``).
    public init(secureEnclaveReference: Data) {
        pkcs8DER = Data()
        self.secureEnclaveReference = secureEnclaveReference
    }

    /// A redacted description.
    public var description: String { "P256PrivateKey(redacted)" }

    /// A mirror without the key material: where the key lives, nothing else.
    public var customMirror: Mirror {
        Mirror(self, children: ["inSecureEnclave": secureEnclaveReference != nil, "key": "redacted"],
               displayStyle: .struct)
    }
}

/// Where ``SystemCrypto`` makes new P-256 keys (the DPoP key).
public enum P256KeyLocation: Sendable, Equatable {
    /// In software: a PKCS #8 key kept in the secure store (the default; the only choice on Linux).
    case software
    /// In the Secure Enclave when the device has one (CryptoKit `SecureEnclave.isAvailable`), in software
    /// otherwise. The store then keeps only the key's reference, which works on this device alone.
    case secureEnclaveWhenAvailable
}

/// A public key of one of the families RegState verifies with.
public enum PublicKeyMaterial: Sendable, Hashable {
    /// An RSA key, for RS256, PS256 and PS512.
    case rsa(RSAPublicKey)
    /// A P-256 key, for ES256.
    case p256(P256PublicKey)

    /// Whether a signature made with `algorithm` can be checked with this key: RSA keys for the RSA algorithms,
    /// P-256 keys for ES256 (RFC 8725 §3.1: the key's type must fit the algorithm).
    public func fits(_ algorithm: SignatureAlgorithm) -> Bool {
        switch self {
        case .rsa: algorithm.isRSA
        case .p256: algorithm == .es256
        }
    }
}

/// A public key in a provider's ready form, parsed once, that verifies many signatures. Implementations hold no
/// mutable state visible to callers, so one value can be shared across tasks.
public protocol VerificationKey: Sendable {
    /// Whether `signature` is a valid `algorithm` signature of `message` by this key.
    ///
    /// A signature that does not verify (including one of the wrong length) returns `false`.
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the algorithm does not fit the key.
    func verify(signature: Data, message: Data, algorithm: SignatureAlgorithm) throws(CryptoError) -> Bool
}
