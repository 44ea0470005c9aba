import Foundation
import RegState

/// Makes and checks the world's credentials: opaque random tokens, their storage hashes, and RS256 JWTs.
///
/// The simulator signs its JWTs with its own few lines over ``CryptoProvider`` rather than with the library's JWT
/// type, so that tests of the library's verifier run against an independent signer. Verifying (the backend checking
/// an ID token) is a relying party's job, so there it uses the library's ``IDTokenValidator``.
struct TokenMint: Sendable {
    let crypto: any CryptoProvider
    let signingKey: RSAPrivateKey
    let publicKey: RSAPublicKey
    let keyID: String

    /// A fresh opaque token: 32 random bytes, base64url.
    func opaqueToken() throws -> String {
        Base64URL.encode(try crypto.randomBytes(count: 32))
    }

    /// The key under which the world stores `token`: base64url SHA-256 of its text.
    func storageKey(_ token: String) -> String {
        Base64URL.encode(crypto.sha256(Data(token.utf8)))
    }

    /// A six-digit one-time code drawn uniformly from the random seam.
    func oneTimeCode() throws -> String {
        // 4_294_000_000 is the largest multiple of 1_000_000 below 2^32: rejecting above it keeps the draw uniform.
        while true {
            let bytes = try crypto.randomBytes(count: 4)
            let value = bytes.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
            if value < 4_294_000_000 {
                let digits = String(value % 1_000_000)
                return String(repeating: "0", count: 6 - digits.count) + digits
            }
        }
    }

    /// A compact JWS (RS256, with `kid` and `typ: JWT`) over `claims`.
    func signedJWT(_ claims: [String: JSONValue]) throws -> String {
        let header: JSONValue = ["alg": "RS256", "typ": "JWT", "kid": .string(keyID)]
        let payload = JSONValue.object(claims).serialized()
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(payload)
        let signature = try crypto.sign(message: Data(input.utf8), privateKey: signingKey, algorithm: .rs256)
        return input + "." + Base64URL.encode(signature)
    }

    /// The world's public key as a JWK set, as `jwks.json` lists it.
    var keySet: JSONWebKeySet {
        JSONWebKeySet(keys: [JSONWebKey(publicKey: publicKey, keyID: keyID)])
    }

    /// A `kid` derived from the public key, so the same key always has the same identifier.
    static func keyID(for publicKey: RSAPublicKey, crypto: any CryptoProvider) -> String {
        String(Base64URL.encode(crypto.sha256(publicKey.modulus + publicKey.exponent)).prefix(16))
    }
}
