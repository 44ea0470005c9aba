import Foundation
import Testing

@testable import RegState
import RegStateTesting

/// DPoP proofs (RFC 9449 §4.2), RFC 7638 thumbprints and the installation's key record.
@Suite("DPoP proofs and key")
struct DPoPProofTests {
    let crypto = SystemCrypto()
    let now = Date(timeIntervalSince1970: 1_782_864_000)

    /// RFC 7638 §3.1: the example RSA key and its thumbprint.
    @Test("known answer: RFC 7638 §3.1's example thumbprint")
    func rfc7638KnownAnswer() throws {
        let key = JSONWebKey(
            keyType: "RSA", keyID: "2011-04-29", algorithm: "RS256",
            modulus: "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
            exponent: "AQAB")
        #expect(try key.thumbprint(crypto: crypto) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        #expect(throws: DPoPError.self) { try JSONWebKey(keyType: "oct").thumbprint(crypto: crypto) }
        #expect(throws: DPoPError.self) { try JSONWebKey(keyType: "EC", curve: "P-256", x: "AA").thumbprint(crypto: crypto) }
    }

    @Test("an EC key's thumbprint hashes crv, kty, x, y in order with no whitespace")
    func ecThumbprint() throws {
        let key = try DPoPKey.generate(crypto: crypto)
        let jwk = key.jwk
        let canonical: JSONValue = ["crv": "P-256", "kty": "EC", "x": .string(jwk.x ?? ""), "y": .string(jwk.y ?? "")]
        #expect(try jwk.thumbprintInput() == String(decoding: canonical.serialized(), as: UTF8.self))
        #expect(key.thumbprint == Base64URL.encode(crypto.sha256(canonical.serialized())))
        #expect(!key.description.contains(Base64URL.encode(key.privateKey.pkcs8DER)))
        #expect(key.description.contains(key.thumbprint))
    }

    @Test("a token-endpoint proof: typ, alg, public jwk only, jti, htm, htu without query or fragment, iat; r||s signature")
    func proofShape() throws {
        let key = try DPoPKey.generate(crypto: crypto)
        let signer = DPoPProofSigner(key: key, crypto: crypto)
        let url = try #require(URL(string: "HTTPS://idp.example/token?x=1#frag"))
        let proof = try signer.proof(method: "post", url: url, now: now)
        let token = try JSONWebToken(compact: proof)
        #expect(token.header["typ"] == "dpop+jwt")
        #expect(token.algorithm == "ES256")
        #expect(Set(token.header.keys) == ["typ", "alg", "jwk"])
        let jwk = try #require(token.header["jwk"]?.objectValue)
        #expect(Set(jwk.keys) == ["kty", "crv", "x", "y"])
        #expect(jwk["x"]?.stringValue == key.jwk.x && jwk["y"]?.stringValue == key.jwk.y)
        #expect(token.claims["htm"] == "POST")
        #expect(token.claims["htu"] == "https://idp.example/token")
        #expect(token.claims["iat"]?.intValue == 1_782_864_000)
        #expect(token.claims["ath"] == nil && token.claims["nonce"] == nil)
        let jti = try #require(token.claims["jti"]?.stringValue)
        #expect(Base64URL.decode(jti)?.count == 16)
        #expect(token.signature.count == 64)
        #expect(try crypto.verify(signature: token.signature, message: token.signingInput, publicKey: key.publicKey))
        let second = try JSONWebToken(compact: signer.proof(method: "POST", url: url, now: now))
        #expect(second.claims["jti"] != token.claims["jti"])
    }

    @Test("a resource proof carries ath = base64url(SHA-256(token)) and the server's nonce")
    func resourceProof() throws {
        let signer = DPoPProofSigner(key: try DPoPKey.generate(crypto: crypto), crypto: crypto)
        let url = try #require(URL(string: "https://api.example/userinfo"))
        let proof = try JSONWebToken(compact: signer.proof(method: "GET", url: url, accessToken: "abc.def", nonce: "n-1", now: now))
        #expect(proof.claims["ath"]?.stringValue == Base64URL.encode(crypto.sha256(Data("abc.def".utf8))))
        #expect(proof.claims["nonce"] == "n-1")
        #expect(throws: DPoPError.invalidTargetURL) {
            try signer.proof(method: "GET", url: try #require(URL(string: "file:///tmp/x")), now: now)
        }
    }

    @Test("the test seam makes each §4.3 defect, and only that one")
    func defects() throws {
        var signer = DPoPProofSigner(key: try DPoPKey.generate(crypto: crypto), crypto: crypto)
        let url = try #require(URL(string: "https://api.example/r"))
        func make(_ defect: DPoPProofDefect) throws -> JSONWebToken {
            signer.defect = defect
            return try JSONWebToken(compact: signer.proof(method: "GET", url: url, accessToken: "t", nonce: "n", now: now))
        }
        #expect(try make(.wrongType).header["typ"] == "JWT")
        #expect(try make(.symmetricAlgorithm).algorithm == "HS256")
        let other = try make(.signedByAnotherKey)
        #expect(try !crypto.verify(signature: other.signature, message: other.signingInput, publicKey: signer.key.publicKey))
        #expect(try make(.privateKeyMember).header["jwk"]?["d"] != nil)
        #expect(try make(.wrongMethod).claims["htm"] == "POST")
        #expect(try make(.wrongURL).claims["htu"] != "https://api.example/r")
        #expect(try make(.staleIssueTime).claims["iat"]?.intValue == 1_782_864_000 - 600)
        #expect(try make(.fixedJTI).claims["jti"] == make(.fixedJTI).claims["jti"])
        #expect(try make(.noNonce).claims["nonce"] == nil)
        #expect(try make(.wrongAccessTokenHash).claims["ath"]?.stringValue != DPoPProofSigner.accessTokenHash("t", crypto: crypto))
        let good = try make(.wrongType)
        #expect(try crypto.verify(signature: good.signature, message: good.signingInput, publicKey: signer.key.publicKey))
    }

    @Test("the key is kept in the secure store beside the credentials; replace makes a new one; remove forgets it")
    func keyStore() throws {
        let store = InMemorySecureStore()
        let keys = DPoPKeyStore(store: store, crypto: crypto)
        #expect(try keys.load() == nil)
        let first = try keys.replace()
        #expect(try keys.load() == first)
        let second = try keys.replace()
        #expect(second.thumbprint != first.thumbprint)
        #expect(try keys.load() == second)
        try keys.remove()
        #expect(try keys.load() == nil)
    }

    @Test("a torn or wrong-curve key record is a typed error, never silently replaced")
    func badRecords() throws {
        let store = InMemorySecureStore()
        let keys = DPoPKeyStore(store: store, crypto: crypto)
        let good = try keys.replace()
        let record = try #require(try store.data(forKey: DPoPKeyStore.recordKey))
        try store.set(record.prefix(record.count / 2), forKey: DPoPKeyStore.recordKey)
        #expect(throws: DPoPError.keyRecordUnreadable(reason: "not a JSON record")) { try keys.load() }
        #expect(try store.data(forKey: DPoPKeyStore.recordKey) == record.prefix(record.count / 2))
        let text = String(decoding: record, as: UTF8.self).replacingOccurrences(of: "P-256", with: "P-384")
        try store.set(Data(text.utf8), forKey: DPoPKeyStore.recordKey)
        #expect(throws: DPoPError.keyRecordWrongCurve(curve: "P-384")) { try keys.load() }
        let garbage = String(decoding: record, as: UTF8.self)
            .replacingOccurrences(of: Base64URL.encode(good.privateKey.pkcs8DER), with: "AAAA")
        try store.set(Data(garbage.utf8), forKey: DPoPKeyStore.recordKey)
        #expect(throws: DPoPError.self) { try keys.load() }
        for error in [DPoPError.keyRecordUnreadable(reason: "x"), .keyRecordWrongCurve(curve: "P-384")] {
            #expect(error.localizedDescription.contains("new registration"))
        }
    }

    @Test("nonces: latest per origin; empty, absurd-size or non-NQCHAR refused and not stored")
    func nonces() throws {
        let cache = DPoPNonceCache()
        let a = try #require(URL(string: "https://a.example/token"))
        let aOther = try #require(URL(string: "https://A.example/userinfo?q"))
        let b = try #require(URL(string: "https://b.example:8443/x"))
        try cache.remember("n1", for: a)
        try cache.remember("n2", for: aOther)
        #expect(cache.nonce(for: a) == "n2")
        #expect(cache.nonce(for: b) == nil)
        #expect(throws: DPoPError.self) { try cache.remember(String(repeating: "x", count: 513), for: b) }
        #expect(throws: DPoPError.self) { try cache.remember("", for: b) }
        #expect(throws: DPoPError.self) { try cache.remember("a\"b", for: b) }
        #expect(cache.nonce(for: b) == nil)
        try cache.remember(String(repeating: "x", count: 512), for: b)
        #expect(cache.nonce(for: b)?.count == 512)
        cache.removeAll()
        #expect(cache.nonce(for: a) == nil)
    }
}
