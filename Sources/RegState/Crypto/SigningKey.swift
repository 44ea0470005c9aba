import Foundation

/// A P-256 private key loaded once into the provider's ready form, to sign many messages (a DPoP proof per request)
/// without reading its bytes again. Get one from ``CryptoProvider/signingKey(for:)``; it never shows the key material.
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
