import Foundation
import RegState

/// A `CryptoProvider` that also works with RSA private keys: it signs, generates keys and derives their public
/// halves. `SystemCrypto` is one.
///
/// The registration engine only verifies RSA signatures; signing is for the ongoing-access requests (PS512) and for
/// whoever plays a provider (the simulator's ID tokens).
public protocol RSASigningProvider: CryptoProvider {
    /// Signs `message` with `privateKey` using `algorithm`.
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` for a key that does not load, is too short or does not fit
    ///   `algorithm`; `CryptoError/signingFailed(_:)` when the signature cannot be made.
    func sign(message: Data, privateKey: RSAPrivateKey, algorithm: SignatureAlgorithm) throws(CryptoError) -> Data
    /// Generates a new RSA private key of `bits` bits (public exponent 65537).
    ///
    /// - Throws: `CryptoError/keyGenerationFailed(_:)` for an unsupported size or a failure of the generator.
    func generateRSAPrivateKey(bits: Int) throws(CryptoError) -> RSAPrivateKey
    /// The public half of `privateKey`.
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` when `privateKey` is not an RSA private key.
    func publicKey(of privateKey: RSAPrivateKey) throws(CryptoError) -> RSAPublicKey
}
