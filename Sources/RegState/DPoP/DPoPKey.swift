import Foundation

/// The installation's DPoP key (RFC 9449), one P-256 key pair binding the tokens to this device; its descriptions and
/// mirror show the thumbprint only, never the private key.
package struct DPoPKey: Sendable, Equatable, RedactedDescription {
    /// The private key (PKCS #8); it never leaves the secure store except to sign proofs.
    let privateKey: P256PrivateKey
    /// The public key a proof's `jwk` header carries.
    package let publicKey: P256PublicKey
    /// The RFC 7638 thumbprint of ``jwk`` (`dpop_jkt`, and `cnf.jkt` in the tokens the key binds).
    package let thumbprint: String

    /// Makes a fresh key through the crypto seam.
    package static func generate(crypto: any CryptoProvider) throws(DPoPError) -> DPoPKey {
        let privateKey: P256PrivateKey
        do {
            privateKey = try crypto.generateP256PrivateKey()
        } catch {
            throw .cryptoFailed(reason: "P-256 key generation failed")
        }
        return try DPoPKey(privateKey: privateKey, crypto: crypto)
    }

    /// Wraps an existing private key, deriving its public key and thumbprint.
    /// - Throws: ``DPoPError/cryptoFailed(reason:)`` when the key is not a usable P-256 key.
    package init(privateKey: P256PrivateKey, crypto: any CryptoProvider) throws(DPoPError) {
        let publicKey: P256PublicKey
        do {
            publicKey = try crypto.publicKey(of: privateKey)
        } catch {
            throw .cryptoFailed(reason: "the private key is not a usable P-256 key")
        }
        self.privateKey = privateKey
        self.publicKey = publicKey
        self.thumbprint = try Self.publicJWK(publicKey).thumbprint(crypto: crypto)
    }

    /// The public JWK as a proof header carries it: `kty`, `crv`, `x`, `y` and nothing else (no `d`, no `kid`).
    package var jwk: JSONWebKey { Self.publicJWK(publicKey) }

    static func publicJWK(_ key: P256PublicKey) -> JSONWebKey {
        JSONWebKey(keyType: "EC", curve: "P-256", x: Base64URL.encode(key.x), y: Base64URL.encode(key.y))
    }

    /// Shows the thumbprint only.
    package var description: String { "DPoPKey(jkt: \(thumbprint))" }
}
