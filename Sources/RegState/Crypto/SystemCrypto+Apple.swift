#if !canImport(CLibCrypto) && ((canImport(CryptoKit) && canImport(Security)) || REGSTATE_APPLE_TYPECHECK)
#if canImport(CryptoKit)
import CryptoKit
#endif
import Foundation
#if canImport(Security)
import Security
#endif

// CryptoKit for hashing and HMAC, Security for random bytes and RSA verification (PKCS #1 DER). `CFError`
// out-parameters are `nil`: the result alone says whether a call failed. Type-checked on Linux.

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
}

extension SystemCrypto {
    package static func secAlgorithm(_ algorithm: SignatureAlgorithm) -> SecKeyAlgorithm {
        switch algorithm {
        case .rs256: .rsaSignatureMessagePKCS1v15SHA256
        case .ps256: .rsaSignatureMessagePSSSHA256
        case .ps512: .rsaSignatureMessagePSSSHA512
        // Never reached: the RSA entry points refuse ES256 before asking for a Security algorithm.
        case .es256: .ecdsaSignatureMessageX962SHA256
        }
    }

    /// Imports PKCS #1 DER as an RSA key of the given class.
    package static func secKey(_ der: Data, keyClass: CFString) throws(CryptoError) -> SecKey {
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
