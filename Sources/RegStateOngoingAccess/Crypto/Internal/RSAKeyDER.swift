import Foundation
import RegState

/// The DER wrappers around PKCS #1 RSA keys: SubjectPublicKeyInfo (RFC 5280 §4.1) and PrivateKeyInfo (RFC 5208 §5).
enum RSAKeyDER {
    static let bitStringTag: UInt8 = 0x03
    static let octetStringTag: UInt8 = 0x04

    /// `AlgorithmIdentifier { rsaEncryption (1.2.840.113549.1.1.1), NULL }`.
    static let rsaAlgorithmIdentifier = Data([
        0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00,
    ])

    /// The PKCS #1 key inside a SubjectPublicKeyInfo, when its algorithm is rsaEncryption.
    static func unwrapSubjectPublicKeyInfo(_ der: Data) throws(CryptoError) -> Data {
        guard var inner = DER.sequenceContent(der) else { throw .invalidKey("not a SubjectPublicKeyInfo") }
        guard let algorithm = inner.element(tag: DER.sequenceTag),
              DER.sequence(Data(algorithm)) == rsaAlgorithmIdentifier
        else { throw .invalidKey("the public key is not an RSA key") }
        guard let bits = inner.element(tag: bitStringTag), inner.isAtEnd, bits.first == 0 else {
            throw .invalidKey("malformed SubjectPublicKeyInfo")
        }
        return Data(bits.dropFirst())
    }

    /// A SubjectPublicKeyInfo around a PKCS #1 public key.
    static func wrapSubjectPublicKeyInfo(_ pkcs1: Data) -> Data {
        DER.sequence(rsaAlgorithmIdentifier + DER.element(tag: bitStringTag, content: [0] + Array(pkcs1)))
    }

    /// The PKCS #1 key inside an unencrypted PrivateKeyInfo (version 0 or 1), when its algorithm is rsaEncryption.
    static func unwrapPrivateKeyInfo(_ der: Data) throws(CryptoError) -> Data {
        guard var inner = DER.sequenceContent(der) else { throw .invalidKey("not a PrivateKeyInfo") }
        guard let version = inner.element(tag: DER.integerTag), version == [0] || version == [1] else {
            throw .invalidKey("unknown PrivateKeyInfo version")
        }
        guard let algorithm = inner.element(tag: DER.sequenceTag),
              DER.sequence(Data(algorithm)) == rsaAlgorithmIdentifier
        else { throw .invalidKey("the private key is not an RSA key") }
        guard let key = inner.element(tag: octetStringTag) else { throw .invalidKey("malformed PrivateKeyInfo") }
        return Data(key)
    }

    /// Checks that `der` is a PKCS #1 `RSAPrivateKey`: a SEQUENCE of nine INTEGERs (version 0 and the eight numbers).
    static func checkPrivateKey(_ der: Data) throws(CryptoError) {
        guard var inner = DER.sequenceContent(der) else { throw .invalidKey("not a PKCS #1 RSA private key") }
        guard inner.element(tag: DER.integerTag) == [0] else { throw .invalidKey("not a two-prime PKCS #1 RSA private key") }
        for _ in 0..<8 {
            guard let number = inner.element(tag: DER.integerTag), !number.isEmpty else {
                throw .invalidKey("not a PKCS #1 RSA private key")
            }
        }
        guard inner.isAtEnd else { throw .invalidKey("not a PKCS #1 RSA private key") }
    }

    /// The base64url member `name` of a JWK, decoded; a value of only zero bytes is refused.
    static func member(_ name: String, of jwk: [String: JSONValue]) throws(CryptoError) -> Data {
        guard let text = jwk[name]?.stringValue, let bytes = Base64URL.decode(text), bytes.contains(where: { $0 != 0 })
        else { throw .invalidKey("the JWK member \"\(name)\" is missing or not base64url") }
        return bytes
    }

    /// The PKCS #1 `RSAPublicKey` in `der`; `nil` when `der` is not one or a number in it is not positive.
    static func publicKey(_ der: Data) -> RSAPublicKey? {
        guard var inner = DER.sequenceContent(der), let modulus = inner.element(tag: DER.integerTag),
            let exponent = inner.element(tag: DER.integerTag), inner.isAtEnd, isPositive(modulus), isPositive(exponent)
        else { return nil }
        return RSAPublicKey(modulus: Data(modulus), exponent: Data(exponent))
    }

    /// A non-empty INTEGER content that is not negative (two's complement sign bit clear) and not zero.
    private static func isPositive(_ content: [UInt8]) -> Bool {
        guard let first = content.first, first & 0x80 == 0 else { return false }
        return content.contains { $0 != 0 }
    }
}
