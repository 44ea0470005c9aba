#if canImport(CLibCrypto)
import CLibCrypto
import Foundation
import RegState

// RSA private keys on libcrypto (OpenSSL 3.0), with the engine's helpers: every object freed with `defer`, the
// thread's error queue cleared after a failed call.

extension SystemCrypto: RSASigningProvider {
    /// Signs `message` with `privateKey` using `algorithm`, from `EVP_DigestSign`.
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` for a key that does not load or is too short,
    ///   `CryptoError/signingFailed(_:)` when libcrypto fails to sign.
    public func sign(
        message: Data, privateKey: RSAPrivateKey, algorithm: SignatureAlgorithm
    ) throws(CryptoError) -> Data {
        guard algorithm.isRSA else { throw CryptoError.invalidKey("an RSA key cannot sign \(algorithm.rawValue)") }
        return try LibCryptoRSASigningKey(privateKey).sign(message: message, algorithm: algorithm)
    }

    /// Generates an RSA key with `EVP_PKEY_keygen` (public exponent 65537, libcrypto's default).
    ///
    /// - Throws: `CryptoError/keyGenerationFailed(_:)` for a size outside 2048...8192 bits or a libcrypto failure.
    public func generateRSAPrivateKey(bits: Int) throws(CryptoError) -> RSAPrivateKey {
        guard (Self.minimumRSAKeyBits...Self.maximumRSAKeyBits).contains(bits) else {
            throw CryptoError.keyGenerationFailed("\(bits) bits is outside 2048...8192")
        }
        let key = try Self.generateKey(EVP_PKEY_RSA) { EVP_PKEY_CTX_set_rsa_keygen_bits($0, Int32(bits)) }
        defer { EVP_PKEY_free(key) }
        guard let der = Self.encode(key, with: i2d_PrivateKey) else {
            throw CryptoError.keyGenerationFailed("libcrypto could not encode the key")
        }
        return RSAPrivateKey(pkcs1DER: der)
    }

    /// The public half of `privateKey`, read from libcrypto's PKCS #1 public encoding of the loaded key.
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` when the DER is not an RSA private key.
    public func publicKey(of privateKey: RSAPrivateKey) throws(CryptoError) -> RSAPublicKey {
        let key = try Self.loadPrivateKey(privateKey, checkingSize: false)
        defer { EVP_PKEY_free(key) }
        guard let der = Self.encode(key, with: i2d_PublicKey), let publicKey = RSAKeyDER.publicKey(der) else {
            throw CryptoError.invalidKey("the public half cannot be encoded")
        }
        return publicKey
    }
}

extension SystemCrypto {
    /// Loads PKCS #1 private-key DER; the caller frees the result with `EVP_PKEY_free`.
    static func loadPrivateKey(_ key: RSAPrivateKey, checkingSize: Bool = true) throws(CryptoError) -> OpaquePointer {
        let loaded = try decodeKey(key.pkcs1DER, refusal: "not a PKCS #1 RSA private key") {
            d2i_PrivateKey(EVP_PKEY_RSA, nil, $0, $1)
        }
        return try checked(loaded, checkingSize: checkingSize)
    }
}
#endif
