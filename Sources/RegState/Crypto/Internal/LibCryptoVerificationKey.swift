#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

/// A public key loaded into libcrypto once (`EVP_PKEY`), ready to verify any number of signatures.
///
/// `@unchecked Sendable` is safe: the `EVP_PKEY` is never modified after loading, and libcrypto allows one key to
/// be used from several threads at once as long as nobody changes it; each verification makes its own
/// `EVP_MD_CTX`. The key is freed when the last reference goes.
final class LibCryptoVerificationKey: VerificationKey, @unchecked Sendable {
    private let key: OpaquePointer
    private let material: PublicKeyMaterial

    /// Takes ownership of `key`.
    init(key: OpaquePointer, material: PublicKeyMaterial) {
        self.key = key
        self.material = material
    }

    deinit { EVP_PKEY_free(key) }

    func verify(signature: Data, message: Data, algorithm: SignatureAlgorithm) throws -> Bool {
        guard material.fits(algorithm) else { throw CryptoError.invalidKey("the key does not fit \(algorithm.rawValue)") }
        if algorithm == .es256 {
            // The JOSE form is exactly 64 bytes; anything else never reaches libcrypto.
            guard let der = DER.ecdsaSignature(jose: signature) else { return false }
            return try digestVerify(signature: der, message: message, algorithm: algorithm)
        }
        return try digestVerify(signature: signature, message: message, algorithm: algorithm)
    }

    private func digestVerify(signature: Data, message: Data, algorithm: SignatureAlgorithm) throws -> Bool {
        guard !signature.isEmpty else { return false }
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.invalidKey("out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, SystemCrypto.digest(for: algorithm), nil, key) == 1,
            let keyContext, algorithm == .es256 || SystemCrypto.configurePadding(keyContext, algorithm: algorithm)
        else {
            ERR_clear_error()
            throw CryptoError.invalidKey("the key does not accept \(algorithm.rawValue)")
        }
        let status = signature.withUnsafeBytes { signatureBytes in
            message.withUnsafeBytes { messageBytes in
                EVP_DigestVerify(
                    context, signatureBytes.bindMemory(to: UInt8.self).baseAddress, signatureBytes.count,
                    messageBytes.bindMemory(to: UInt8.self).baseAddress, messageBytes.count)
            }
        }
        guard status == 1 else {
            ERR_clear_error()
            return false
        }
        return true
    }
}
#endif
