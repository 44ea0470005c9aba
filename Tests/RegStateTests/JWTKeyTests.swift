import Foundation
import Testing

import RegState
import RegStateOngoingAccess
import RegStateSimulator

@Suite("JSONWebKey and JSONWebKeySet")
struct JWTKeyTests {
    @Test("public key → JWK → JSON → JWK → public key round-trips")
    func roundTrip() throws {
        let jwk = JSONWebKey(publicKey: CryptoTestKeys.primaryPublic, keyID: "k1", algorithm: .ps256)
        #expect(jwk.keyType == "RSA")
        #expect(jwk.use == "sig")
        #expect(jwk.algorithm == "PS256")
        #expect(jwk.exponent == "AQAB")
        let json = try JSONEncoder().encode(JSONWebKeySet(keys: [jwk]))
        let object = try JSONValue.parse(json)
        let first = object["keys"]?.arrayValue?.first
        #expect(first?["kty"] == "RSA")
        #expect(first?["kid"] == "k1")
        #expect(first?["n"]?.stringValue?.contains("=") == false)
        let decoded = try JSONWebKeySet.parse(json)
        #expect(decoded.keys == [jwk])
        #expect(try decoded.keys.first?.rsaPublicKey() == CryptoTestKeys.primaryPublic)
    }

    @Test("the RFC 7515 A.2 key as a JWK gives the same public key")
    func rfcKey() throws {
        let json = Data(#"{"kty":"RSA","n":"\#(RFC7515A2.modulus)","e":"AQAB"}"#.utf8)
        let jwk = try JSONDecoder().decode(JSONWebKey.self, from: json)
        #expect(jwk.keyID == nil)
        #expect(try jwk.rsaPublicKey() == RFC7515A2.publicKey)
    }

    struct BadKey: Sendable, CustomTestStringConvertible {
        let name: String
        let key: JSONWebKey
        var testDescription: String { name }
    }

    static let badKeys: [BadKey] = [
        BadKey(name: "EC key", key: JSONWebKey(keyType: "EC", keyID: "e", modulus: "AQAB", exponent: "AQAB")),
        BadKey(name: "missing n", key: JSONWebKey(keyType: "RSA", exponent: "AQAB")),
        BadKey(name: "missing e", key: JSONWebKey(keyType: "RSA", modulus: "AQAB")),
        BadKey(name: "n not base64url", key: JSONWebKey(keyType: "RSA", modulus: "a+b/", exponent: "AQAB")),
        BadKey(name: "zero n", key: JSONWebKey(keyType: "RSA", modulus: "AAAA", exponent: "AQAB")),
    ]

    @Test("unusable JWKs throw invalidKey", arguments: badKeys)
    func badKey(testCase: BadKey) {
        #expect(performing: { try testCase.key.rsaPublicKey() }, throws: { error in
            if case JWTError.invalidKey = error { return true }
            return false
        })
    }

    @Test("a key set skips entries that are not keys and keeps non-RSA keys")
    func lenientDecoding() throws {
        let json = Data(
            #"{"keys":[{"kty":"EC","crv":"P-256","x":"f8","y":"x_","kid":"ec"},42,{"kid":"no-kty"},"#
                .utf8) + Data(#"{"kty":"RSA","kid":"rsa","n":"\#(RFC7515A2.modulus)","e":"AQAB","x5c":["MII"]}]}"#.utf8)
        let set = try JSONWebKeySet.parse(json)
        #expect(set.keys.map(\.keyID) == ["ec", "rsa"])
        #expect(set.key(withID: "rsa")?.modulus == RFC7515A2.modulus)
        #expect(set.key(withID: "ec") == nil)
        #expect(set.key(withID: nil)?.keyID == "rsa")
    }

    @Test("a key set without keys does not parse")
    func missingKeys() {
        #expect(throws: JSONWebKeySet.ParseError.noKeysArray) { try JSONWebKeySet.parse(Data("{}".utf8)) }
    }

    @Test("key lookup by kid")
    func lookup() {
        let signing1 = JSONWebKey(publicKey: CryptoTestKeys.primaryPublic, keyID: "one")
        let signing2 = JSONWebKey(publicKey: CryptoTestKeys.otherPublic, keyID: "two")
        var encryption = JSONWebKey(publicKey: CryptoTestKeys.otherPublic, keyID: "enc")
        encryption.use = "enc"

        let set = JSONWebKeySet(keys: [signing1, signing2, encryption])
        #expect(set.key(withID: "one") == signing1)
        #expect(set.key(withID: "two") == signing2)
        #expect(set.key(withID: "enc") == nil)
        #expect(set.key(withID: "three") == nil)
        #expect(set.key(withID: nil) == nil)

        let single = JSONWebKeySet(keys: [signing1, encryption])
        #expect(single.key(withID: nil) == signing1)
        #expect(JSONWebKeySet(keys: []).key(withID: nil) == nil)
    }
}
