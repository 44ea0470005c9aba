#if canImport(CLibCrypto)
import CLibCrypto
import Foundation
import RegState

extension SystemCrypto {
    /// A new P-256 key with its public half and a ready signing key taken from the generated key itself, without
    /// decoding its DER (which costs more than the generation): for the simulation's crypto.
    func generateReadyP256Key() throws(CryptoError) -> (privateKey: P256PrivateKey, publicKey: P256PublicKey,
                                                         signingKey: any SigningKey) {
        let key = try Self.generateP256Key()
        let signingKey = LibCryptoSigningKey(key: key)
        guard let der = Self.encode(key, with: i2d_PUBKEY),
            let publicKey = DER.p256PublicKey(fromSubjectPublicKeyInfo: der)
        else { throw CryptoError.keyGenerationFailed("the public half cannot be encoded") }
        return (try Self.p256PrivateKey(of: key), publicKey, signingKey)
    }
}
#endif
