import Foundation
import Testing

import RegState
import RegStateSimulator

/// ES256 through the crypto seam: JOSE `r || s` signatures, P-256 keys, known answers from RFC 7515 A.3.
@Suite("SystemCrypto ES256")
struct CryptoES256Tests {
    let crypto = SystemCrypto()

    /// RFC 7515 Appendix A.3: the example JWS using ECDSA P-256 SHA-256.
    enum RFC7515A3 {
        static let x = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
        static let y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
        static let jws = "eyJhbGciOiJFUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
        static var key: P256PublicKey? {
            guard let x = Base64URL.decode(x), let y = Base64URL.decode(y) else { return nil }
            return P256PublicKey(x: x, y: y)
        }
    }

    @Test("known answer: the RFC 7515 A.3 signature verifies, through the seam and a ready key")
    func knownAnswer() throws {
        let key = try #require(RFC7515A3.key)
        let token = try JSONWebToken(compact: RFC7515A3.jws)
        #expect(token.algorithm == "ES256")
        #expect(token.claims["iss"] == "joe")
        #expect(try crypto.verify(signature: token.signature, message: token.signingInput, publicKey: key))
        let ready = try crypto.verificationKey(for: .p256(key))
        #expect(try ready.verify(signature: token.signature, message: token.signingInput, algorithm: .es256))
        var tampered = token.signature
        tampered[10] ^= 0x01
        #expect(try !crypto.verify(signature: tampered, message: token.signingInput, publicKey: key))
    }

    @Test("signatures of the wrong length, or in DER form, never verify")
    func wrongLengths() throws {
        let key = try #require(RFC7515A3.key)
        let token = try JSONWebToken(compact: RFC7515A3.jws)
        let signature = token.signature
        for bad in [Data(), signature.prefix(63), signature + Data([0]), Data([0x30, 0x44]) + signature.prefix(68)] {
            #expect(try !crypto.verify(signature: bad, message: token.signingInput, publicKey: key))
        }
    }

    @Test("generate, sign, verify round-trips; the signature is 64 bytes; another message fails")
    func roundTrip() throws {
        let privateKey = try crypto.generateP256PrivateKey()
        let publicKey = try crypto.publicKey(of: privateKey)
        let message = Data("header.payload".utf8)
        let signature = try crypto.sign(message: message, privateKey: privateKey)
        #expect(signature.count == 64)
        #expect(try crypto.verify(signature: signature, message: message, publicKey: publicKey))
        #expect(try !crypto.verify(signature: signature, message: Data("header.payloaD".utf8), publicKey: publicKey))
        #expect(!privateKey.description.contains(privateKey.pkcs8DER.base64EncodedString().prefix(12)))
    }

    @Test("a point that is not on P-256 is an unusable key; coordinates must be 32 bytes")
    func offCurve() throws {
        let key = try #require(P256PublicKey(x: Data(repeating: 1, count: 32), y: Data(repeating: 2, count: 32)))
        #expect(throws: CryptoError.self) { try crypto.verificationKey(for: .p256(key)) }
        #expect(P256PublicKey(x: Data(repeating: 1, count: 31), y: Data(repeating: 2, count: 32)) == nil)
    }

    @Test("a ready key refuses an algorithm that does not fit it")
    func readyKeyFits() throws {
        let key = try #require(RFC7515A3.key)
        let ready = try crypto.verificationKey(for: .p256(key))
        #expect(throws: CryptoError.self) { try ready.verify(signature: Data(count: 64), message: Data(), algorithm: .rs256) }
        let rsa = try crypto.verificationKey(for: .rsa(CryptoTestKeys.primaryPublic))
        #expect(throws: CryptoError.self) { try rsa.verify(signature: Data(count: 256), message: Data(), algorithm: .es256) }
    }

    @Test("an ES256 ID token validates against an EC JWK, and the JWK round-trips its coordinates")
    func idToken() throws {
        let privateKey = try crypto.generateP256PrivateKey()
        let publicKey = try crypto.publicKey(of: privateKey)
        let jwk = JSONWebKey(publicKey: publicKey, keyID: "ec-1")
        #expect(try jwk.p256PublicKey() == publicKey)
        let base = IDTokenValidatorTests()
        let header = Base64URL.encode(JSONValue.object(["alg": "ES256", "kid": "ec-1"]).serialized())
        let payload = Base64URL.encode(JSONValue.object(base.claims()).serialized())
        let signature = try crypto.sign(message: Data("\(header).\(payload)".utf8), privateKey: privateKey)
        let compact = "\(header).\(payload).\(Base64URL.encode(signature))"
        let keySet = JSONWebKeySet(keys: base.keySet.keys + [jwk])
        let token = try base.validator.validate(compact, keySet: keySet, expectedNonce: "n-123", now: base.now)
        #expect(token.algorithm == "ES256")
        // The same token against an RSA key with that kid is a key that does not fit.
        let confused = JSONWebKeySet(keys: [JSONWebKey(publicKey: CryptoTestKeys.primaryPublic, keyID: "ec-1")])
        #expect(throws: IDTokenError.keyDoesNotFitAlgorithm("ES256")) {
            try base.validator.validate(compact, keySet: confused, expectedNonce: "n-123", now: base.now)
        }
    }
}

@Suite("JWK set ready-key cache")
struct ReadyKeyCacheTests {
    @Test("each JWK is made ready once per key set, however many tokens; changing the keys starts afresh")
    func oncePerSet() throws {
        let base = IDTokenValidatorTests()
        let crypto = ForwardingCrypto()
        var validator = base.validator
        validator.crypto = crypto
        var keySet = base.keySet
        for _ in 0..<5 {
            _ = try validator.validate(try base.token(), keySet: keySet, expectedNonce: "n-123", now: base.now)
        }
        #expect(crypto.readyKeys.value == 1)
        _ = try validator.validate(try base.token(keyID: "k-other", key: CryptoTestKeys.other, algorithm: .ps256),
                                   keySet: keySet, expectedNonce: "n-123", now: base.now)
        #expect(crypto.readyKeys.value == 2)
        keySet.keys.append(JSONWebKey(keyType: "RSA", keyID: "unused"))
        _ = try validator.validate(try base.token(), keySet: keySet, expectedNonce: "n-123", now: base.now)
        #expect(crypto.readyKeys.value == 3)
        #expect(keySet != base.keySet)
    }
}
