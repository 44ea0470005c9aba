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
