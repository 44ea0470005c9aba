import Foundation

/// The cryptography RegState needs, behind one seam: SHA-256, HMAC-SHA-256, random bytes, RSA verification, ES256.
/// The default is ``SystemCrypto``; RSA signing is RegStateOngoingAccess's `RSASigningProvider`.
public protocol CryptoProvider: Sendable {
    /// The SHA-256 digest of `data`.
    func sha256(_ data: Data) -> Data
    /// HMAC-SHA-256 of `message` under `key`.
    func hmacSHA256(key: Data, message: Data) -> Data
    /// `count` bytes from a cryptographically secure generator.
    func randomBytes(count: Int) throws(CryptoError) -> Data
    /// Whether `signature` is a valid `algorithm` signature of `message` by `publicKey`; `false` when it does not.
    /// - Throws: ``CryptoError/invalidKey(_:)`` for a key the provider cannot use.
    func verify(signature: Data, message: Data, publicKey: RSAPublicKey, algorithm: SignatureAlgorithm) throws(CryptoError) -> Bool

    /// A public key parsed once into the provider's ready form, to verify many signatures without re-reading it.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the key cannot be used (too short, not on the curve, …).
    func verificationKey(for key: PublicKeyMaterial) throws(CryptoError) -> any VerificationKey
    /// Whether `signature` is a valid ES256 signature of `message` by `publicKey`.
    ///
    /// `signature` is the JOSE form (RFC 7518 §3.4): `r` and `s` as two 32-byte big-endian halves, 64 bytes in all;
    /// any other length does not verify.
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the point is not on P-256.
    func verify(signature: Data, message: Data, publicKey: P256PublicKey) throws(CryptoError) -> Bool
    /// Generates a new P-256 private key.
    func generateP256PrivateKey() throws(CryptoError) -> P256PrivateKey
    /// The public half of a P-256 private key.
    func publicKey(of privateKey: P256PrivateKey) throws(CryptoError) -> P256PublicKey
    /// Signs `message` with ES256 and returns the JOSE form (64 bytes, `r` then `s`).
    func sign(message: Data, privateKey: P256PrivateKey) throws(CryptoError) -> Data
    /// A P-256 private key loaded once, ready to sign many messages (DPoP proofs) with ES256.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the key is not a usable P-256 key.
    func signingKey(for privateKey: P256PrivateKey) throws(CryptoError) -> any SigningKey
}

/// The JWS signature algorithms RegState signs and verifies (RFC 7518 §3.3 and §3.5).
public enum SignatureAlgorithm: String, Sendable, Equatable, Codable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256: what OpenID providers sign ID tokens with.
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256 and a 32-byte salt.
    case ps256 = "PS256"
    /// RSASSA-PSS with SHA-512 and a 64-byte salt: the ongoing-access request signature.
    case ps512 = "PS512"
    /// ECDSA over P-256 with SHA-256 (RFC 7518 §3.4); signatures are `r || s`, 64 bytes.
    case es256 = "ES256"

    /// Whether the algorithm signs with an RSA key.
    package var isRSA: Bool { self != .es256 }
}

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

/// Why a cryptographic operation failed.
public enum CryptoError: Error, Sendable, Equatable {
    /// The system's random generator failed.
    case randomFailed
    /// A key could not be used; the detail says why, never what the key is.
    case invalidKey(String)
    /// Signing failed.
    case signingFailed(String)
    /// Key generation failed.
    case keyGenerationFailed(String)
}

extension CryptoError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .randomFailed: "The system's random generator failed."
        case .invalidKey(let detail): "The key cannot be used (\(detail))."
        case .signingFailed(let detail): "Signing failed (\(detail))."
        case .keyGenerationFailed(let detail): "Key generation failed (\(detail))."
        }
    }
}
