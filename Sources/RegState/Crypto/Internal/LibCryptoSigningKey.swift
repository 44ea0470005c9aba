#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

/// A P-256 private key loaded into libcrypto once (`EVP_PKEY`), ready to sign any number of messages with ES256.
///
/// Reading PKCS #8 into an `EVP_PKEY` costs far more than a signature (OpenSSL 3's decoder), so a DPoP signer holds
/// one of these instead of handing the DER to ``SystemCrypto/sign(message:privateKey:)`` for every proof.
///
/// `@unchecked Sendable` is safe: the `EVP_PKEY` is never modified after loading (libcrypto allows sharing it across
/// threads then), and each signature uses its own `EVP_MD_CTX`.
final class LibCryptoSigningKey: SigningKey, @unchecked Sendable {
    private let key: OpaquePointer

    /// Takes ownership of `key`.
    init(key: OpaquePointer) {
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    func sign(message: Data) throws -> Data {
        try SystemCrypto.signES256(message: message, key: key)
    }
}

extension SystemCrypto {
    /// A P-256 private key loaded once into libcrypto.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the DER is not a P-256 private key.
    public func signingKey(for privateKey: P256PrivateKey) throws -> any SigningKey {
        LibCryptoSigningKey(key: try Self.loadP256PrivateKey(privateKey))
    }

    /// ES256 with a loaded key; the JOSE form (`r || s`, 64 bytes).
    static func signES256(message: Data, key: OpaquePointer) throws -> Data {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.signingFailed("out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            ERR_clear_error()
            throw CryptoError.invalidKey("the key does not accept ES256")
        }
        var signature = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(key)))
        var length = signature.count
        let status = withBytes(message) { bytes, count in
            EVP_DigestSign(context, &signature, &length, bytes, count)
        }
        guard status == 1, let jose = DER.joseSignature(ecdsa: Data(signature.prefix(length))) else {
            ERR_clear_error()
            throw CryptoError.signingFailed("libcrypto refused to sign")
        }
        return jose
    }
}
#endif
