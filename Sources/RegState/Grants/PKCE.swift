import Foundation

/// Proof Key for Code Exchange (RFC 7636) with the `S256` method, and the random `state`/`nonce` values of every
/// authorization request (package API, so that tests check a challenge against a verifier).
package enum PKCE {
    /// The only method RegState sends: `S256` (RFC 7636 §4.2); `plain` offers no protection against a stolen code.
    package static let method = "S256"

    /// The `S256` challenge of `verifier`: `BASE64URL(SHA256(ASCII(verifier)))`.
    package static func challenge(for verifier: String, crypto: any CryptoProvider) -> String {
        Base64URL.encode(crypto.sha256(Data(verifier.utf8)))
    }

    /// 32 random bytes as base64url: the shape of `state`, `nonce` and the verifier (256 bits of entropy each; a
    /// verifier of 43 characters, RFC 7636 §4.1).
    package static func randomToken(crypto: any CryptoProvider) throws(CryptoError) -> String {
        let bytes = try crypto.randomBytes(count: 32)
        guard bytes.count == 32 else { throw .randomFailed }
        return Base64URL.encode(bytes)
    }
}
