#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

/// A public key loaded into libcrypto once (`EVP_PKEY`), with one key context per algorithm, reused (a busy one is
/// not waited for). `@unchecked Sendable`: the key is never modified, the contexts are only touched under `lock`.
final class LibCryptoVerificationKey: VerificationKey, @unchecked Sendable {
    private let key: OpaquePointer
    private let material: PublicKeyMaterial
    private let lock = NSLock()
    private var contexts: [SignatureAlgorithm: OpaquePointer] = [:]

    /// Takes ownership of `key`.
    init(key: OpaquePointer, material: PublicKeyMaterial) {
        self.key = key
        self.material = material
    }

    deinit {
        for context in contexts.values { EVP_PKEY_CTX_free(context) }
        EVP_PKEY_free(key)
    }

    func verify(signature: Data, message: Data, algorithm: SignatureAlgorithm) throws(CryptoError) -> Bool {
        guard material.fits(algorithm) else { throw CryptoError.invalidKey("the key does not fit \(algorithm.rawValue)") }
        // ES256's JOSE form is exactly 64 bytes; anything else, and an empty signature, never reaches libcrypto.
        guard let der = algorithm == .es256 ? DER.ecdsaSignature(jose: signature) : signature, !der.isEmpty else {
            return false
        }
        return try verifyDigest(signature: der, message: message, algorithm: algorithm)
    }

    private func verifyDigest(signature: Data, message: Data, algorithm: SignatureAlgorithm) throws(CryptoError) -> Bool {
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return try withUnsafeMutableBytes(of: &digest) { digestBuffer in Result { () throws(CryptoError) -> Bool in
            let digestBytes = digestBuffer.bindMemory(to: UInt8.self)
            var digestLength: UInt32 = 0
            let hashed = message.withUnsafeBytes { bytes in
                EVP_Digest(bytes.baseAddress, bytes.count, digestBytes.baseAddress, &digestLength,
                           SystemCrypto.digest(for: algorithm), nil)
            }
            guard hashed == 1 else {
                ERR_clear_error()
                throw CryptoError.invalidKey("the message cannot be hashed")
            }
            let (context, reused) = try context(for: algorithm)
            defer {
                if reused { lock.unlock() } else { EVP_PKEY_CTX_free(context) }
            }
            let status = signature.withUnsafeBytes { signatureBytes in
                EVP_PKEY_verify(context, signatureBytes.bindMemory(to: UInt8.self).baseAddress, signatureBytes.count,
                                digestBytes.baseAddress, Int(digestLength))
            }
            guard status == 1 else {
                ERR_clear_error()
                return false
            }
            return true
        } }.get()
    }

    /// The reusable context for `algorithm` with the lock held (`reused`), or a fresh one the caller frees.
    private func context(for algorithm: SignatureAlgorithm) throws(CryptoError) -> (OpaquePointer, reused: Bool) {
        if lock.try() {
            if let context = contexts[algorithm] { return (context, true) }
            do {
                let context = try makeContext(algorithm)
                contexts[algorithm] = context
                return (context, true)
            } catch {
                lock.unlock()
                throw error
            }
        }
        return (try makeContext(algorithm), false)
    }

    private func makeContext(_ algorithm: SignatureAlgorithm) throws(CryptoError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { throw CryptoError.invalidKey("out of memory") }
        guard EVP_PKEY_verify_init(context) == 1,
            EVP_PKEY_CTX_set_signature_md(context, SystemCrypto.digest(for: algorithm)) == 1,
            algorithm == .es256 || SystemCrypto.configurePadding(context, algorithm: algorithm)
        else {
            ERR_clear_error()
            EVP_PKEY_CTX_free(context)
            throw CryptoError.invalidKey("the key does not accept \(algorithm.rawValue)")
        }
        return context
    }
}
#endif
