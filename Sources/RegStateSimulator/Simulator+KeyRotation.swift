import Foundation
import RegState
import RegStateOngoingAccess

/// Signing-key rotation: the provider starts signing ID tokens with a new RSA key and publishes it in its JWKS.
extension Simulator {
    /// Rotates the world's RSA signing key: ID tokens issued from now on are signed with `newKey` under a new `kid`,
    /// which the JWKS publishes first. With `keepingOld` the previous key stays in the JWKS (a provider's usual
    /// overlap, so tokens already issued still verify); without it the previous key is dropped at once.
    ///
    /// The rotation lives in this simulator instance: a persisted world (`persistence`) saves the new key, not the
    /// retired ones.
    /// - Parameters:
    ///   - newKey: The new private key; `nil` makes a 2048-bit key through the simulator's crypto.
    ///   - keepingOld: Whether the previous public key stays published.
    /// - Returns: The new key's `kid`.
    /// - Throws: ``SimulatorError/signingKeyUnusable(_:)`` when the key cannot be made or used.
    @discardableResult
    public func rotateSigningKey(to newKey: RSAPrivateKey? = nil, keepingOld: Bool) throws(SimulatorError) -> String {
        let old = mint
        do {
            let key = try newKey ?? old.crypto.generateRSAPrivateKey(bits: 2048)
            let publicKey = try old.crypto.publicKey(of: key)
            let keyID = TokenMint.keyID(for: publicKey, crypto: old.crypto)
            var next = try TokenMint(crypto: old.crypto, signingKey: key, publicKey: publicKey, keyID: keyID,
                                     algorithm: old.algorithm)
            if keepingOld {
                next.retiredKeys = [(old.publicKey, old.keyID)] + old.retiredKeys
            }
            mint = next
            world.signingKeyDER = key.pkcs1DER.base64EncodedString()
            world.keyID = keyID
            return keyID
        } catch {
            throw .signingKeyUnusable(String(describing: type(of: error)))
        }
    }
}
