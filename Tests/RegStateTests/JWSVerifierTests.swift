import Foundation
import Testing

@testable import RegState
import RegStateOngoingAccess
@testable import RegStateOngoingAccess
import RegStateSimulator

@Suite("JWSVerifier: the fixed policy for signed answers")
struct JWSVerifierTests {
    let crypto = SystemCrypto()
    var keys: JSONWebKeySet {
        JSONWebKeySet(keys: [JSONWebKey(publicKey: CryptoTestKeys.primaryPublic, keyID: "p1", algorithm: .ps512),
                             JSONWebKey(publicKey: CryptoTestKeys.otherPublic, keyID: "r1", algorithm: .rs256)])
    }

    func signed(_ algorithm: SignatureAlgorithm, kid: String?, key: RSAPrivateKey = CryptoTestKeys.primary,
                header: [String: JSONValue] = [:]) throws -> String {
        try JSONWebToken.sign(header: header, claims: ["nonce": "n-1"], keyID: kid, privateKey: key, algorithm: algorithm,
                            crypto: crypto)
    }

    @Test("PS512 and, widened explicitly, RS256 answers verify under their pinned keys",
          arguments: [(SignatureAlgorithm.ps512, "p1"), (.rs256, "r1")])
    func verifies(algorithm: SignatureAlgorithm, kid: String) throws {
        let key = kid == "p1" ? CryptoTestKeys.primary : CryptoTestKeys.other
        let jws = try JWSVerifier(keys: keys, allowedAlgorithms: [.ps512, .rs256]).verify(try signed(algorithm, kid: kid, key: key))
        #expect(jws.claims["nonce"] == "n-1")
        #expect(jws.algorithm == algorithm.rawValue)
    }

    @Test("The allow-list is the verifier's, not the token's: PS256 and a removed RS256 are refused")
    func allowList() throws {
        #expect(throws: JWSRejection.unsupportedAlgorithm("PS256")) {
            try JWSVerifier(keys: keys).verify(try signed(.ps256, kid: "p1"))
        }
        #expect(throws: JWSRejection.unsupportedAlgorithm("RS256")) {
            try JWSVerifier(keys: keys, allowedAlgorithms: [.ps512]).verify(try signed(.rs256, kid: "r1", key: CryptoTestKeys.other))
        }
    }

    @Test("A key published for PS512 does not verify RS256, even with a valid signature and RS256 allowed")
    func keyAlgorithmMismatch() throws {
        #expect(throws: JWSRejection.keyAlgorithmMismatch) {
            try JWSVerifier(keys: keys, allowedAlgorithms: [.ps512, .rs256]).verify(try signed(.rs256, kid: "p1"))
        }
    }

    /// Issue 27: only the configured algorithm, for every algorithm the library can verify, against a pinned key
    /// that carries no `alg` (the case where the key cannot say no).
    @Test("by default only PS512 verifies, whatever the pinned key leaves open; widening is explicit",
          arguments: [SignatureAlgorithm.rs256, .ps256, .ps512])
    func onlyTheConfiguredAlgorithm(_ algorithm: SignatureAlgorithm) throws {
        let published = JSONWebKey(publicKey: CryptoTestKeys.primaryPublic, keyID: "k")
        let open = JSONWebKeySet(keys: [JSONWebKey(keyType: "RSA", keyID: "k", use: "sig", algorithm: nil,
                                                   modulus: published.modulus, exponent: published.exponent)])
        let answer = try signed(algorithm, kid: "k")
        for verifier in [JWSVerifier(keys: open), JWSVerifier(keys: open, allowedAlgorithms: OngoingAccessConfiguration(
            providerURL: URL(fileURLWithPath: "/"), appID: "a", contractID: "c", redirectURI: URL(fileURLWithPath: "/"),
            appKeyID: "k", providerKeys: open).allowedAlgorithms)] {
            if algorithm == .ps512 {
                #expect(try verifier.verify(answer).algorithm == "PS512")
            } else {
                #expect(throws: JWSRejection.unsupportedAlgorithm(algorithm.rawValue)) { try verifier.verify(answer) }
            }
        }
        let widened = JWSVerifier(keys: open, allowedAlgorithms: [.ps512, algorithm])
        #expect(try widened.verify(answer).algorithm == algorithm.rawValue)
    }

    @Test("crit headers are refused; a jku, even allow-listed, is not followed by the synchronous verify")
    func headers() throws {
        #expect(throws: JWSRejection.criticalHeader) {
            try JWSVerifier(keys: keys).verify(try signed(.ps512, kid: "p1", header: ["crit": ["exp"]]))
        }
        let allowed = URL(string: "https://keys.example/jwks")!
        let verifier = JWSVerifier(keys: keys, allowedKeySetURLs: [allowed])
        #expect(throws: JWSRejection.unknownKeyID("elsewhere")) {
            try verifier.verify(try signed(.ps512, kid: "elsewhere", header: ["jku": .string(allowed.absoluteString)]))
        }
        #expect(throws: JWSRejection.foreignKeySetURL("keys.example")) {
            try verifier.verify(try signed(.ps512, kid: "p1", header: ["jku": "https://keys.example/other"]))
        }
        #expect(verifier.allows(keySetURL: URL(string: "HTTPS://KEYS.example/jwks")!))
        #expect(!verifier.allows(keySetURL: URL(string: "https://keys.example/jwks?x=1")!))
    }

    @Test("Structure problems are malformed", arguments: ["a.b", "a.b.c.d", "..", "e30.e30.!!!", "W10.e30.AA"])
    func malformed(text: String) {
        #expect(throws: JWSRejection.self) { try JWSVerifier(keys: keys).verify(text) }
        do {
            _ = try JWSVerifier(keys: keys).verify(text)
        } catch {
            guard case .malformed = error else { Issue.record("\(error) is not malformed"); return }
        }
    }

    /// A compact JWS with `header` and a one-member payload, its signature one byte: for refusals that come before
    /// any key is looked at.
    static func unsigned(_ header: [String: JSONValue]) -> String {
        Base64URL.encode(JSONValue.object(header).serialized()) + "."
            + Base64URL.encode(JSONValue.object(["nonce": "n-1"]).serialized()) + ".AA"
    }

    @Test("What the one JWS reader refuses keeps its JWSRejection: no alg, a crit header, a kid that is not one string")
    func readerRefusals() {
        let verifier = JWSVerifier(keys: keys)
        #expect(throws: JWSRejection.unsupportedAlgorithm("(none given)")) {
            try verifier.verify(Self.unsigned(["kid": "p1"]))
        }
        #expect(throws: JWSRejection.unsupportedAlgorithm("(none given)")) {
            try verifier.verify(Self.unsigned(["alg": 512, "kid": "p1"]))
        }
        #expect(throws: JWSRejection.criticalHeader) {
            try verifier.verify(Self.unsigned(["alg": "PS512", "kid": "p1", "crit": ["b64"]]))
        }
        #expect(throws: JWSRejection.missingKeyID) { try verifier.verify(Self.unsigned(["alg": "PS512", "kid": 1])) }
        #expect(throws: JWSRejection.missingKeyID) { try verifier.verify(Self.unsigned(["alg": "PS512"])) }
        #expect(throws: JWSRejection.missingKeyID) { try verifier.verify(Self.unsigned(["alg": "PS512", "kid": ""])) }
    }

    @Test("An answer longer than the JWS reader's limit is malformed, before anything in it is read")
    func tooLong() throws {
        let padding = String(repeating: "x", count: JSONWebToken.maximumCompactLength)
        let long = try JSONWebToken.sign(claims: ["nonce": "n-1", "padding": .string(padding)], keyID: "p1",
                                         privateKey: CryptoTestKeys.primary, algorithm: .ps512, crypto: crypto)
        do {
            _ = try JWSVerifier(keys: keys).verify(long)
            Issue.record("an over-long answer verified")
        } catch {
            guard case .malformed = error else { Issue.record("\(error) is not malformed"); return }
        }
    }

    @Test("The JWS's description shows no payload")
    func redacted() throws {
        let jws = try JSONWebToken(compact: try signed(.ps512, kid: "p1"))
        #expect(!"\(jws)".contains("n-1"))
        #expect(!String(reflecting: jws).contains("n-1"))
    }
}
