import Foundation
import RegState

// Publishing keys is a provider's job (the simulated provider's JWKS); the engine only reads JWKs.

extension JSONWebKey {
    /// The JWK for an RSA public signing key, with its `kid` and the algorithm it signs with, ready to publish.
    package init(publicKey: RSAPublicKey, keyID: String, algorithm: SignatureAlgorithm = .rs256) {
        self.init(
            keyType: "RSA", keyID: keyID, use: "sig", algorithm: algorithm.rawValue,
            modulus: Base64URL.encode(publicKey.modulus), exponent: Base64URL.encode(publicKey.exponent))
    }

    /// The JWK for a P-256 public signing key (ES256), ready to publish in a key set.
    package init(publicKey: P256PublicKey, keyID: String) {
        self.init(
            keyType: "EC", keyID: keyID, use: "sig", algorithm: SignatureAlgorithm.es256.rawValue, curve: "P-256",
            x: Base64URL.encode(publicKey.x), y: Base64URL.encode(publicKey.y))
    }
}
