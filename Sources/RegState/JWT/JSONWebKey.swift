import Foundation

/// One JSON Web Key (RFC 7517) as an issuer publishes it in its JWKS; RegState uses RSA signing keys.
///
/// Members RegState does not use are ignored when decoding. Non-RSA keys decode too (with `n`/`e` absent), so one
/// unfamiliar key does not make a whole key set unreadable.
public struct JSONWebKey: Sendable, Hashable, Codable {
    /// `kty`: the key family, `"RSA"` for the keys RegState can use.
    public var keyType: String
    /// `kid`: the identifier a JWS header names to pick this key.
    public var keyID: String?
    /// `use`: `"sig"` for signing keys, `"enc"` for encryption keys.
    public var use: String?
    /// `alg`: the one algorithm this key is meant for, when the issuer says.
    public var algorithm: String?
    /// `n`: the RSA modulus, base64url.
    public var modulus: String?
    /// `e`: the RSA public exponent, base64url.
    public var exponent: String?

    private enum CodingKeys: String, CodingKey {
        case keyType = "kty"
        case keyID = "kid"
        case use
        case algorithm = "alg"
        case modulus = "n"
        case exponent = "e"
    }

    /// Creates a key from its members as they appear in JSON.
    public init(
        keyType: String, keyID: String? = nil, use: String? = nil, algorithm: String? = nil,
        modulus: String? = nil, exponent: String? = nil
    ) {
        self.keyType = keyType
        self.keyID = keyID
        self.use = use
        self.algorithm = algorithm
        self.modulus = modulus
        self.exponent = exponent
    }

    /// The JWK for an RSA public signing key, ready to publish in a key set.
    ///
    /// - Parameters:
    ///   - publicKey: the key.
    ///   - keyID: its `kid`.
    ///   - algorithm: the algorithm it signs with.
    public init(publicKey: RSAPublicKey, keyID: String, algorithm: SignatureAlgorithm = .rs256) {
        self.init(
            keyType: "RSA", keyID: keyID, use: "sig", algorithm: algorithm.rawValue,
            modulus: Base64URL.encode(publicKey.modulus), exponent: Base64URL.encode(publicKey.exponent))
    }

    /// Whether this is an RSA key that may verify signatures (`use` absent or `"sig"`).
    public var isRSASigningKey: Bool {
        keyType == "RSA" && (use == nil || use == "sig")
    }

    /// The RSA public key this JWK describes.
    ///
    /// - Throws: ``JWTError/invalidKey(_:)`` when it is not an RSA key or `n`/`e` are missing or not base64url.
    public func rsaPublicKey() throws -> RSAPublicKey {
        guard keyType == "RSA" else { throw JWTError.invalidKey("kty is not RSA") }
        guard let modulusText = modulus, let modulus = Base64URL.decode(modulusText),
            modulus.contains(where: { $0 != 0 })
        else { throw JWTError.invalidKey("missing or malformed n") }
        guard let exponentText = exponent, let exponent = Base64URL.decode(exponentText),
            exponent.contains(where: { $0 != 0 })
        else { throw JWTError.invalidKey("missing or malformed e") }
        return RSAPublicKey(modulus: modulus, exponent: exponent)
    }
}
