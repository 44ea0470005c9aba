#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

/// A P-256 private key loaded into libcrypto once (`EVP_PKEY`) for ES256: loading costs more than a signature.
/// `@unchecked Sendable`: the key is never modified, the one prepared signing context is only used under `lock`.
package final class LibCryptoSigningKey: SigningKey, @unchecked Sendable {
    private let key: OpaquePointer
    private let prepared: OpaquePointer?
    private let lock = NSLock()

    /// Takes ownership of `key`.
    package init(key: OpaquePointer) {
        self.key = key
        var prepared = EVP_PKEY_CTX_new(key, nil)
        if let context = prepared, EVP_PKEY_sign_init(context) != 1 {
            EVP_PKEY_CTX_free(context)
            ERR_clear_error()
            prepared = nil
        }
        self.prepared = prepared
    }

    deinit {
        if let prepared { EVP_PKEY_CTX_free(prepared) }
        EVP_PKEY_free(key)
    }

    package func sign(message: Data) throws(CryptoError) -> Data {
        guard let prepared, let digestType = SystemCrypto.sha256Type else {
            return try SystemCrypto.sign(message: message, key: key, algorithm: .es256)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var digestLength: UInt32 = 0
        let hashed = SystemCrypto.withBytes(message) { bytes, count in
            EVP_Digest(bytes, count, &digest, &digestLength, digestType, nil)
        }
        var signature = [UInt8](repeating: 0, count: 80)
        var length = signature.count
        let status: Int32 = hashed == 1 && digestLength == 32
            ? lock.withLock { EVP_PKEY_sign(prepared, &signature, &length, digest, 32) } : 0
        guard status == 1, let jose = DER.joseSignature(ecdsa: Data(signature.prefix(length))) else {
            ERR_clear_error()
            throw CryptoError.signingFailed("libcrypto refused to sign")
        }
        return jose
    }
}

extension SystemCrypto {
    /// A P-256 private key loaded once into libcrypto.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the DER is not a P-256 private key.
    public func signingKey(for privateKey: P256PrivateKey) throws(CryptoError) -> any SigningKey {
        LibCryptoSigningKey(key: try Self.loadP256PrivateKey(privateKey))
    }
}
#endif
