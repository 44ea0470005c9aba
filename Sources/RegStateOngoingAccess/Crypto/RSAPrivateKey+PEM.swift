import Foundation
import RegState

extension RSAPrivateKey {
    /// Reads an RSA private key from PEM: `RSA PRIVATE KEY` (PKCS #1) or an unencrypted `PRIVATE KEY` (PKCS #8).
    ///
    /// Encrypted PEM is refused: the app decrypts its key before handing it over.
    /// - Throws: `CryptoError/invalidKey(_:)` when the text is not one of those, or the key is not RSA.
    public init(pem: String) throws(CryptoError) {
        let block = try PEMBlock(pem)
        let pkcs1: Data
        switch block.label {
        case "RSA PRIVATE KEY": pkcs1 = block.der
        case "PRIVATE KEY": pkcs1 = try RSAKeyDER.unwrapPrivateKeyInfo(block.der)
        default: throw .invalidKey("a PEM \"\(block.label.prefix(40))\" block is not an unencrypted RSA private key")
        }
        try RSAKeyDER.checkPrivateKey(pkcs1)
        self.init(pkcs1DER: pkcs1)
    }

    /// Reads an RSA private JWK with every CRT member (`n`, `e`, `d`, `p`, `q`, `dp`, `dq`, `qi`; RFC 7518 §6.3.2).
    ///
    /// - Throws: `CryptoError/invalidKey(_:)` when `kty` is not `RSA` or a member is missing or not base64url.
    public init(jwk: [String: JSONValue]) throws(CryptoError) {
        guard jwk["kty"]?.stringValue == "RSA" else { throw .invalidKey("the JWK's kty is not RSA") }
        var body = DER.integer(unsigned: Data())
        for name in ["n", "e", "d", "p", "q", "dp", "dq", "qi"] {
            body.append(DER.integer(unsigned: try RSAKeyDER.member(name, of: jwk)))
        }
        self.init(pkcs1DER: DER.sequence(body))
    }

    /// The key as an `RSA PRIVATE KEY` PEM block (PKCS #1). The text is the secret itself: keep it in a secure store.
    public var pemEncoded: String {
        PEMBlock.encode(label: "RSA PRIVATE KEY", der: pkcs1DER)
    }
}
