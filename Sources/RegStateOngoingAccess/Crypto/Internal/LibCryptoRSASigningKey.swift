#if canImport(CLibCrypto)
import CLibCrypto
import Foundation
import RegState

/// An RSA private key loaded into libcrypto once (`EVP_PKEY`), ready to sign any number of messages.
///
/// OpenSSL 3's decoder plus a fresh key's Montgomery and blinding set-up cost as much as a signature, so a caller that
/// signs often with one key (the simulated provider) holds one of these.
///
/// `@unchecked Sendable` is safe: the `EVP_PKEY` is never modified by this type after loading, and libcrypto allows
/// signing with one key from several threads.
package final class LibCryptoRSASigningKey: @unchecked Sendable {
    private let key: OpaquePointer

    /// Loads `privateKey`.
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` for a key that does not load or is shorter than 2048 bits.
    package init(_ privateKey: RSAPrivateKey) throws(CryptoError) {
        key = try SystemCrypto.loadPrivateKey(privateKey)
    }

    deinit { EVP_PKEY_free(key) }

    /// Signs `message` with `algorithm`, as `SystemCrypto/sign(message:privateKey:algorithm:)` does.
    package func sign(message: Data, algorithm: SignatureAlgorithm) throws(CryptoError) -> Data {
        guard algorithm.isRSA else { throw CryptoError.invalidKey("an RSA key cannot sign \(algorithm.rawValue)") }
        return try SystemCrypto.sign(message: message, key: key, algorithm: algorithm)
    }
}
#endif
