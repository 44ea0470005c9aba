import Foundation
import RegState

// RSA public keys to and from PEM (RFC 7468) and JWK (RFC 7518 §6.3), in pure DER so every platform reads them alike.

extension RSAPublicKey {
    /// Reads an RSA public key from PEM: `PUBLIC KEY` (X.509 SubjectPublicKeyInfo) or `RSA PUBLIC KEY` (PKCS #1).
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` when the text is not one of those, or the key is not RSA.
    public init(pem: String) throws(CryptoError) {
        let block = try PEMBlock(pem)
        let pkcs1: Data
        switch block.label {
        case "RSA PUBLIC KEY": pkcs1 = block.der
        case "PUBLIC KEY": pkcs1 = try RSAKeyDER.unwrapSubjectPublicKeyInfo(block.der)
        default: throw .invalidKey("a PEM \"\(block.label.prefix(40))\" block is not an RSA public key")
        }
        guard let key = RSAKeyDER.publicKey(pkcs1) else { throw .invalidKey("not a PKCS #1 RSA public key") }
        self = key
    }

    /// Reads the public members `n` and `e` of an RSA JWK (a public or a private one).
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` when `kty` is not `RSA` or `n`/`e` are missing or not base64url.
    public init(jwk: [String: JSONValue]) throws(CryptoError) {
        guard jwk["kty"]?.stringValue == "RSA" else { throw .invalidKey("the JWK's kty is not RSA") }
        let modulus = try RSAKeyDER.member("n", of: jwk)
        let exponent = try RSAKeyDER.member("e", of: jwk)
        self.init(modulus: modulus, exponent: exponent)
    }

    /// The key as a `PUBLIC KEY` PEM block (SubjectPublicKeyInfo), the form most tools read.
    public var pemEncoded: String {
        let pkcs1 = DER.rsaPublicKey(modulus: modulus, exponent: exponent)
        return PEMBlock.encode(label: "PUBLIC KEY", der: RSAKeyDER.wrapSubjectPublicKeyInfo(pkcs1))
    }

    /// The key as JWK members (`kty`, `n`, `e`), plus `kid` and `alg` when given.
    public func jwk(keyID: String? = nil, algorithm: SignatureAlgorithm? = nil) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "kty": "RSA", "n": .string(Base64URL.encode(modulus)), "e": .string(Base64URL.encode(exponent)),
        ]
        if let keyID { members["kid"] = .string(keyID) }
        if let algorithm { members["alg"] = .string(algorithm.rawValue) }
        return members
    }
}
