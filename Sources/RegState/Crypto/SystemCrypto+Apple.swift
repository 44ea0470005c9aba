#if !canImport(CLibCrypto) && ((canImport(CryptoKit) && canImport(Security)) || REGSTATE_APPLE_TYPECHECK)
#if canImport(CryptoKit)
import CryptoKit
#endif
import Foundation
#if canImport(Security)
import Security
#endif

// CryptoKit for hashing and HMAC, Security for random bytes and RSA (PKCS #1 DER, the form ``RSAPrivateKey``
// holds). `CFError` out-parameters are `nil`: the result alone says whether a call failed. Type-checked on Linux.

extension SystemCrypto {
    /// The SHA-256 digest of `data`, from CryptoKit.
    public func sha256(_ data: Data) -> Data {
        Data(SHA256.hash(data: data))
    }

    /// HMAC-SHA-256 of `message` under `key`, from CryptoKit.
    public func hmacSHA256(key: Data, message: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// `count` bytes from `SecRandomCopyBytes`.
    ///
    /// - Throws: ``CryptoError/randomFailed`` when the generator fails or `count` is negative.
    public func randomBytes(count: Int) throws(CryptoError) -> Data {
        guard count >= 0 else { throw CryptoError.randomFailed }
        guard count > 0 else { return Data() }
        var bytes = [UInt8](repeating: 0, count: count)
        guard SecRandomCopyBytes(kSecRandomDefault, count, &bytes) == errSecSuccess else {
            throw CryptoError.randomFailed
        }
        return Data(bytes)
    }

    /// Whether `signature` is a valid `algorithm` signature of `message` by `publicKey`, from `SecKeyVerifySignature`.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the key cannot be loaded or is shorter than 2048 bits.
    public func verify(
        signature: Data, message: Data, publicKey: RSAPublicKey, algorithm: SignatureAlgorithm
    ) throws(CryptoError) -> Bool {
        guard algorithm.isRSA else { throw CryptoError.invalidKey("an RSA key cannot verify \(algorithm.rawValue)") }
        guard publicKey.bitCount >= Self.minimumRSAKeyBits, !publicKey.exponent.isEmpty else {
            throw CryptoError.invalidKey("modulus shorter than \(Self.minimumRSAKeyBits) bits")
        }
        let der = DER.rsaPublicKey(modulus: publicKey.modulus, exponent: publicKey.exponent)
        let key = try Self.secKey(der, keyClass: kSecAttrKeyClassPublic)
        return SecKeyVerifySignature(key, Self.secAlgorithm(algorithm), message as CFData, signature as CFData, nil)
    }

    /// Signs `message` with `privateKey` using `algorithm`, from `SecKeyCreateSignature`.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` for a key that does not load or is too short,
    ///   ``CryptoError/signingFailed(_:)`` when Security fails to sign.
    public func sign(message: Data, privateKey: RSAPrivateKey, algorithm: SignatureAlgorithm) throws(CryptoError) -> Data {
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
    /// - Throws: ``CryptoError/keyGenerationFailed(_:)`` for a size outside 2048...8192 bits or a Security failure.
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
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the DER is not an RSA private key.
    public func publicKey(of privateKey: RSAPrivateKey) throws(CryptoError) -> RSAPublicKey {
        let key = try Self.secKey(privateKey.pkcs1DER, keyClass: kSecAttrKeyClassPrivate)
        guard let publicKey = SecKeyCopyPublicKey(key),
            let der = SecKeyCopyExternalRepresentation(publicKey, nil) as Data?, let parts = DER.parseRSAPublicKey(der)
        else { throw CryptoError.invalidKey("the public half cannot be exported") }
        return RSAPublicKey(modulus: parts.modulus, exponent: parts.exponent)
    }
}

extension SystemCrypto {
    private static func secAlgorithm(_ algorithm: SignatureAlgorithm) -> SecKeyAlgorithm {
        switch algorithm {
        case .rs256: .rsaSignatureMessagePKCS1v15SHA256
        case .ps256: .rsaSignatureMessagePSSSHA256
        case .ps512: .rsaSignatureMessagePSSSHA512
        // Never reached: the RSA entry points refuse ES256 before asking for a Security algorithm.
        case .es256: .ecdsaSignatureMessageX962SHA256
        }
    }

    /// Imports PKCS #1 DER as an RSA key of the given class.
    private static func secKey(_ der: Data, keyClass: CFString) throws(CryptoError) -> SecKey {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
            kSecAttrKeyClass as String: keyClass,
        ]
        guard let key = SecKeyCreateWithData(der as CFData, attributes as CFDictionary, nil) else {
            throw CryptoError.invalidKey("not a PKCS #1 RSA key")
        }
        return key
    }
}
#endif
