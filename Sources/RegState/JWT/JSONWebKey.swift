import Foundation

/// One JSON Web Key (RFC 7517) as an issuer publishes it: RSA (RS256, PS256) or P-256 (ES256). Keys of other types
/// decode too (unused members are ignored), so one unfamiliar key does not make a whole key set unreadable.
package struct JSONWebKey: Sendable, Hashable, Codable {
    /// `kty`: the key family, `"RSA"` or `"EC"` for the keys RegState can use.
    package var keyType: String
    /// `kid`: the identifier a JWS header names to pick this key.
    package var keyID: String?
    /// `use`: `"sig"` for signing keys, `"enc"` for encryption keys.
    package var use: String?
    /// `alg`: the one algorithm this key is meant for, when the issuer says.
    package var algorithm: String?
    /// `n`: the RSA modulus, base64url.
    package var modulus: String?
    /// `e`: the RSA public exponent, base64url.
    package var exponent: String?
    /// `crv`: the curve of an EC key, `"P-256"` for the keys RegState can use.
    package var curve: String?
    /// `x`: the EC point's x coordinate, base64url.
    package var x: String?
    /// `y`: the EC point's y coordinate, base64url.
    package var y: String?

    private enum CodingKeys: String, CodingKey {
        case keyType = "kty"
        case keyID = "kid"
        case use
        case algorithm = "alg"
        case modulus = "n"
        case exponent = "e"
        case curve = "crv"
        case x
        case y
    }

    package init(
        keyType: String, keyID: String? = nil, use: String? = nil, algorithm: String? = nil,
        modulus: String? = nil, exponent: String? = nil, curve: String? = nil, x: String? = nil, y: String? = nil
    ) {
        self.keyType = keyType
        self.keyID = keyID
        self.use = use
        self.algorithm = algorithm
        self.modulus = modulus
        self.exponent = exponent
        self.curve = curve
        self.x = x
        self.y = y
    }

    /// Whether the key may verify signatures: `use` absent or `"sig"`.
    package var isSigningKey: Bool { use == nil || use == "sig" }

    /// Whether this key may verify `algorithm`: a signing key whose type (and curve) fits the algorithm, and whose
    /// own `alg`, when it has one, is that algorithm (RFC 7517 §4.4, RFC 8725 §3.1).
    package func fits(_ algorithm: SignatureAlgorithm) -> Bool {
        guard isSigningKey, self.algorithm == nil || self.algorithm == algorithm.rawValue else { return false }
        switch keyType {
        case "RSA": return algorithm.isRSA
        case "EC": return algorithm == .es256 && curve == "P-256"
        default: return false
        }
    }

    /// The RSA public key this JWK describes (`kty` RSA, non-zero base64url `n` and `e`).
    package func rsaPublicKey() throws(JWTError) -> RSAPublicKey {
        guard keyType == "RSA" else { throw .invalidKey("kty is not RSA") }
        guard let modulusText = modulus, let modulus = Base64URL.decode(modulusText),
            modulus.contains(where: { $0 != 0 })
        else { throw .invalidKey("missing or malformed n") }
        guard let exponentText = exponent, let exponent = Base64URL.decode(exponentText),
            exponent.contains(where: { $0 != 0 })
        else { throw .invalidKey("missing or malformed e") }
        return RSAPublicKey(modulus: modulus, exponent: exponent)
    }

    /// The P-256 public key this JWK describes (`kty` EC, `crv` P-256, `x` and `y` 32 bytes of base64url each).
    package func p256PublicKey() throws(JWTError) -> P256PublicKey {
        guard keyType == "EC", curve == "P-256" else { throw .invalidKey("not an EC key on P-256") }
        guard let xText = x, let yText = y, let x = Base64URL.decode(xText), let y = Base64URL.decode(yText),
            let key = P256PublicKey(x: x, y: y)
        else { throw .invalidKey("missing or malformed x or y") }
        return key
    }

    /// The key material, RSA or P-256, this JWK describes.
    package func publicKeyMaterial() throws(JWTError) -> PublicKeyMaterial {
        switch keyType {
        case "RSA": return .rsa(try rsaPublicKey())
        case "EC": return .p256(try p256PublicKey())
        default: throw .invalidKey("unsupported kty")
        }
    }
}
