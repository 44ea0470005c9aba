import Foundation

extension CryptoProvider {
    /// A ready key that calls this provider's per-call `verify` each time.
    public func verificationKey(for key: PublicKeyMaterial) throws(CryptoError) -> any VerificationKey {
        ProviderVerificationKey(provider: self, material: key)
    }

    /// A ready key that calls this provider's per-call `sign(message:privateKey:)` each time.
    public func signingKey(for privateKey: P256PrivateKey) throws(CryptoError) -> any SigningKey {
        ProviderSigningKey(provider: self, privateKey: privateKey)
    }
}

/// A ready key that verifies through the provider's per-call `verify` (providers without a faster form).
struct ProviderVerificationKey: VerificationKey {
    let provider: any CryptoProvider
    let material: PublicKeyMaterial

    func verify(signature: Data, message: Data, algorithm: SignatureAlgorithm) throws(CryptoError) -> Bool {
        guard material.fits(algorithm) else { throw CryptoError.invalidKey("the key does not fit \(algorithm.rawValue)") }
        switch material {
        case .rsa(let key):
            return try provider.verify(signature: signature, message: message, publicKey: key, algorithm: algorithm)
        case .p256(let key):
            return try provider.verify(signature: signature, message: message, publicKey: key)
        }
    }
}
