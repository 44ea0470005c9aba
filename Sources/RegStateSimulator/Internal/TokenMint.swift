import Foundation
import RegState
import RegStateOngoingAccess

/// Makes and checks the world's credentials: opaque random tokens, their storage hashes, and JWTs signed RS256,
/// PS256 (the world's RSA key) or ES256 (a P-256 key of this simulator instance).
///
/// The simulator signs its JWTs with its own few lines over ``CryptoProvider`` rather than with the library's JWT
/// type, so that tests of the library's verifier run against an independent signer. Verifying (the backend checking
/// an ID token) is a relying party's job, so there it uses the library's ``IDTokenValidator``.
struct TokenMint: Sendable {
    let crypto: any RSASigningProvider
    let signingKey: RSAPrivateKey
    let publicKey: RSAPublicKey
    let keyID: String
    /// The ID token signing algorithm (``SimulatorConfiguration/idTokenSigningAlgorithm``).
    let algorithm: SignatureAlgorithm
    /// The P-256 key for ES256, with its public half and `kid`; `nil` unless the algorithm is ES256.
    let ellipticKey: (privateKey: P256PrivateKey, publicKey: P256PublicKey, keyID: String)?
    /// RSA public keys the world signed with before its last rotations and still publishes, with their `kid`s.
    var retiredKeys: [(publicKey: RSAPublicKey, keyID: String)] = []

    /// A mint for the world's RSA key; for ES256 a P-256 key is made through `crypto`.
    init(crypto: any RSASigningProvider, signingKey: RSAPrivateKey, publicKey: RSAPublicKey, keyID: String,
         algorithm: SignatureAlgorithm = .rs256) throws {
        self.crypto = crypto
        self.signingKey = signingKey
        self.publicKey = publicKey
        self.keyID = keyID
        self.algorithm = algorithm
        if algorithm == .es256 {
            let privateKey = try crypto.generateP256PrivateKey()
            let publicKey = try crypto.publicKey(of: privateKey)
            let keyID = String(Base64URL.encode(crypto.sha256(publicKey.x + publicKey.y)).prefix(16))
            ellipticKey = (privateKey, publicKey, keyID)
        } else {
            ellipticKey = nil
        }
    }

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

    /// Like ``signedJWT(_:appendingToHeader:appendingToPayload:)`` (same header, same `kid`) but signed with a freshly made key of the same kind that the
    /// key set does not publish: what a token forged with another key looks like.
    func signedJWTWithForeignKey(_ claims: [String: JSONValue]) throws -> String {
        let kid = ellipticKey?.keyID ?? keyID
        let header: JSONValue = ["alg": .string(algorithm.rawValue), "typ": "JWT", "kid": .string(kid)]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        let signature: Data
        if ellipticKey != nil {
            signature = try crypto.sign(message: Data(input.utf8), privateKey: crypto.generateP256PrivateKey())
        } else {
            signature = try crypto.sign(message: Data(input.utf8), privateKey: crypto.generateRSAPrivateKey(bits: 2048),
                                        algorithm: algorithm)
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// A compact JWS (the mint's algorithm, with `kid` and `typ: JWT`) over `claims`; raw members given in `header` or
    /// `payload` are appended inside that object (duplicate members no JSON encoder writes) and signed over.
    func signedJWT(_ claims: [String: JSONValue], appendingToHeader header: String = "",
                   appendingToPayload payload: String = "") throws -> String {
        let kid = ellipticKey?.keyID ?? keyID
        let headerValue: JSONValue = ["alg": .string(algorithm.rawValue), "typ": "JWT", "kid": .string(kid)]
        let input = Base64URL.encode(Self.appending(header, to: headerValue.serialized())) + "."
            + Base64URL.encode(Self.appending(payload, to: JSONValue.object(claims).serialized()))
        let signature: Data
        if let ellipticKey {
            signature = try crypto.sign(message: Data(input.utf8), privateKey: ellipticKey.privateKey)
        } else {
            signature = try crypto.sign(message: Data(input.utf8), privateKey: signingKey, algorithm: algorithm)
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// `members` inserted before the closing brace of the serialized object `object`.
    private static func appending(_ members: String, to object: Data) -> Data {
        guard !members.isEmpty, object.last == UInt8(ascii: "}") else { return object }
        return object.dropLast() + Data(members.utf8) + Data("}".utf8)
    }

    /// The world's public keys as a JWK set, as `jwks.json` lists them: the RSA key (published for the signing
    /// algorithm when that is an RSA one), then the P-256 key when signing ES256.
    var keySet: JSONWebKeySet {
        var keys = [JSONWebKey(publicKey: publicKey, keyID: keyID, algorithm: algorithm.isRSA ? algorithm : .rs256)]
        for retired in retiredKeys {
            keys.append(JSONWebKey(publicKey: retired.publicKey, keyID: retired.keyID,
                                   algorithm: algorithm.isRSA ? algorithm : .rs256))
        }
        if let ellipticKey { keys.append(JSONWebKey(publicKey: ellipticKey.publicKey, keyID: ellipticKey.keyID)) }
        return JSONWebKeySet(keys: keys)
    }

    /// A `kid` derived from the public key, so the same key always has the same identifier.
    static func keyID(for publicKey: RSAPublicKey, crypto: any CryptoProvider) -> String {
        String(Base64URL.encode(crypto.sha256(publicKey.modulus + publicKey.exponent)).prefix(16))
    }
}
