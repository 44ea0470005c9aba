import Foundation

// RSA keys to and from PEM (RFC 7468) and JWK (RFC 7518 §6.3), in pure DER so that every platform reads them alike.

extension RSAPublicKey {
    /// Reads an RSA public key from PEM: `PUBLIC KEY` (X.509 SubjectPublicKeyInfo) or `RSA PUBLIC KEY` (PKCS #1).
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the text is not one of those, or the key is not RSA.
    public init(pem: String) throws(CryptoError) {
        let block = try PEMBlock(pem)
        let pkcs1: Data
        switch block.label {
        case "RSA PUBLIC KEY": pkcs1 = block.der
        case "PUBLIC KEY": pkcs1 = try RSAKeyDER.unwrapSubjectPublicKeyInfo(block.der)
        default: throw .invalidKey("a PEM \"\(block.label.prefix(40))\" block is not an RSA public key")
        }
        guard let parts = DER.parseRSAPublicKey(pkcs1) else { throw .invalidKey("not a PKCS #1 RSA public key") }
        self.init(modulus: parts.modulus, exponent: parts.exponent)
    }

    /// Reads the public members `n` and `e` of an RSA JWK (a public or a private one).
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when `kty` is not `RSA` or `n`/`e` are missing or not base64url.
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

extension RSAPrivateKey {
    /// Reads an RSA private key from PEM: `RSA PRIVATE KEY` (PKCS #1) or an unencrypted `PRIVATE KEY` (PKCS #8).
    ///
    /// Encrypted PEM is refused: the app decrypts its key before handing it over.
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the text is not one of those, or the key is not RSA.
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
    /// - Throws: ``CryptoError/invalidKey(_:)`` when `kty` is not `RSA` or a member is missing or not base64url.
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

/// One PEM block: its label and the DER bytes between the encapsulation boundaries.
struct PEMBlock {
    /// The label, such as `PUBLIC KEY`.
    let label: String
    /// The decoded body.
    let der: Data

    /// Reads the first PEM block of `text`; headers (`Proc-Type`, which marks encryption) are refused.
    init(_ text: String) throws(CryptoError) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }) else {
            throw .invalidKey("no PEM BEGIN line")
        }
        let label = String(lines[begin].dropFirst("-----BEGIN ".count).dropLast(5))
        guard let end = lines[begin...].firstIndex(of: "-----END \(label)-----") else {
            throw .invalidKey("no PEM END line for \"\(label.prefix(40))\"")
        }
        let body = lines[(begin + 1)..<end]
        guard !body.contains(where: { $0.contains(":") }) else { throw .invalidKey("encrypted PEM is not supported") }
        guard let der = Data(base64Encoded: body.joined()), !der.isEmpty else { throw .invalidKey("the PEM body is not base64") }
        self.label = label
        self.der = der
    }

    /// `der` as a PEM block with 64-character lines.
    static func encode(label: String, der: Data) -> String {
        let base64 = Array(der.base64EncodedString())
        let body = stride(from: 0, to: base64.count, by: 64).map { String(base64[$0..<min($0 + 64, base64.count)]) }
        return (["-----BEGIN \(label)-----"] + body + ["-----END \(label)-----"]).joined(separator: "\n") + "\n"
    }
}

/// The DER wrappers around PKCS #1 RSA keys: SubjectPublicKeyInfo (RFC 5280 §4.1) and PrivateKeyInfo (RFC 5208 §5).
enum RSAKeyDER {
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
        guard let bits = inner.element(tag: DER.bitStringTag), inner.isAtEnd, bits.first == 0 else {
            throw .invalidKey("malformed SubjectPublicKeyInfo")
        }
        return Data(bits.dropFirst())
    }

    /// A SubjectPublicKeyInfo around a PKCS #1 public key.
    static func wrapSubjectPublicKeyInfo(_ pkcs1: Data) -> Data {
        DER.sequence(rsaAlgorithmIdentifier + DER.element(tag: DER.bitStringTag, content: [0] + Array(pkcs1)))
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
        guard let key = inner.element(tag: DER.octetStringTag) else { throw .invalidKey("malformed PrivateKeyInfo") }
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
}
