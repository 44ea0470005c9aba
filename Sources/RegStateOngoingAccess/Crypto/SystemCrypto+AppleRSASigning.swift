#if !canImport(CLibCrypto) && ((canImport(CryptoKit) && canImport(Security)) || REGSTATE_APPLE_TYPECHECK)
import Foundation
import RegState
#if canImport(Security)
import Security
#endif

// RSA private keys on Security, as PKCS #1 DER (the form ``RSAPrivateKey`` holds). Type-checked on Linux.

extension SystemCrypto: RSASigningProvider {
    /// Signs `message` with `privateKey` using `algorithm`, from `SecKeyCreateSignature`.
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` for a key that does not load or is too short,
    ///   `CryptoError/signingFailed(_:)` when Security fails to sign.
    public func sign(
        message: Data, privateKey: RSAPrivateKey, algorithm: SignatureAlgorithm
    ) throws(CryptoError) -> Data {
        guard algorithm.isRSA else { throw CryptoError.invalidKey("an RSA key cannot sign \(algorithm.rawValue)") }
        let key = try Self.secKey(privateKey.pkcs1DER, keyClass: kSecAttrKeyClassPrivate)
        guard SecKeyGetBlockSize(key) * 8 >= Self.minimumRSAKeyBits else {
            throw CryptoError.invalidKey("modulus shorter than \(Self.minimumRSAKeyBits) bits")
        }
        guard let signature = SecKeyCreateSignature(key, Self.secAlgorithm(algorithm), message as CFData, nil) else {
            throw CryptoError.signingFailed("Security refused to sign")
        }
        return signature as Data
    }

    /// Generates an RSA key with `SecKeyCreateRandomKey` (public exponent 65537) and exports it as PKCS #1 DER.
    ///
    /// - Throws: `CryptoError/keyGenerationFailed(_:)` for a size outside 2048...8192 bits or a Security failure.
    public func generateRSAPrivateKey(bits: Int) throws(CryptoError) -> RSAPrivateKey {
        guard (Self.minimumRSAKeyBits...Self.maximumRSAKeyBits).contains(bits) else {
            throw CryptoError.keyGenerationFailed("\(bits) bits is outside 2048...8192")
        }
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
            kSecAttrKeySizeInBits as String: bits,
        ]
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, nil) else {
            throw CryptoError.keyGenerationFailed("Security could not generate the key")
        }
        guard let der = SecKeyCopyExternalRepresentation(key, nil) as Data? else {
            throw CryptoError.keyGenerationFailed("Security could not export the key")
        }
        return RSAPrivateKey(pkcs1DER: der)
    }

    /// The public half of `privateKey`, from `SecKeyCopyPublicKey` and its PKCS #1 export.
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` when the DER is not an RSA private key.
    public func publicKey(of privateKey: RSAPrivateKey) throws(CryptoError) -> RSAPublicKey {
        let key = try Self.secKey(privateKey.pkcs1DER, keyClass: kSecAttrKeyClassPrivate)
        guard let secPublicKey = SecKeyCopyPublicKey(key),
            let der = SecKeyCopyExternalRepresentation(secPublicKey, nil) as Data?,
            let publicKey = RSAKeyDER.publicKey(der)
        else { throw CryptoError.invalidKey("the public half cannot be exported") }
        return publicKey
    }
}
#endif
