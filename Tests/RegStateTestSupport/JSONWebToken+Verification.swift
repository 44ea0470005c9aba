import Foundation
import RegState

extension JSONWebToken {
    /// Whether the signature is valid for this token's RSA `alg` under `key` (tests check a token against one key;
    /// the engine verifies through ``IDTokenValidator``).
    package func verifySignature(with key: RSAPublicKey, crypto: any CryptoProvider) throws -> Bool {
        guard let algorithm = signatureAlgorithm, algorithm.isRSA else {
            throw JWTError.unsupportedAlgorithm(self.algorithm)
        }
        return try crypto.verify(signature: signature, message: signingInput, publicKey: key, algorithm: algorithm)
    }
}
