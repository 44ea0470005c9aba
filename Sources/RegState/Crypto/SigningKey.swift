import Foundation

/// A P-256 private key loaded once into the crypto provider's ready form, to sign many messages (one DPoP proof per
/// request) without reading the key's bytes again each time.
///
/// Get one from ``CryptoProvider/signingKey(for:)``. It never exposes the key material.
public protocol SigningKey: Sendable {
    /// Signs `message` with ES256 and returns the JOSE form (64 bytes, `r` then `s`).
    func sign(message: Data) throws(CryptoError) -> Data
}

/// A ready key that signs through the provider's per-call `sign(message:privateKey:)`.
struct ProviderSigningKey: SigningKey {
    let provider: any CryptoProvider
    let privateKey: P256PrivateKey

    func sign(message: Data) throws(CryptoError) -> Data {
        try provider.sign(message: message, privateKey: privateKey)
    }
}
