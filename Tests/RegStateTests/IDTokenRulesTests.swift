import Foundation
import Testing

import RegState
import RegStateOngoingAccess
import RegStateSimulator

/// The OIDC Core §3.1.3.7 and RFC 8725 rules added to the validator, one test per rule, at a fixed instant.
@Suite("ID token rules (OIDC Core 3.1.3.7, RFC 8725)")
struct IDTokenRulesTests {
    let base = IDTokenValidatorTests()
    var now: Date { base.now }
    var seconds: Double { now.timeIntervalSince1970 }

    func validate(_ token: String, validator: IDTokenValidator? = nil) throws(IDTokenError) -> JSONWebToken {
        try (validator ?? base.validator).validate(token, keySet: base.keySet, expectedNonce: "n-123", now: now)
    }

    /// A token whose header and payload are given as raw JSON text, signed with the primary key.
    func rawToken(header: String, payload: String) throws -> String {
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
        let signature = try SystemCrypto().sign(message: Data(input.utf8), privateKey: CryptoTestKeys.primary,
                                                algorithm: .rs256)
        return input + "." + Base64URL.encode(signature)
    }

    // MARK: sub

    @Test("sub of 1 to 255 printable ASCII characters is accepted")
    func subjectAccepted() throws {
        _ = try validate(try base.token(["sub": "x"]))
        _ = try validate(try base.token(["sub": .string(String(repeating: "a", count: 255))]))
    }

    @Test("sub empty, longer than 255, or not ASCII is refused",
          arguments: ["", String(repeating: "a", count: 256), "jösé", "tab\there"])
    func subjectRefused(subject: String) throws {
        let compact = try base.token(["sub": .string(subject)])
        #expect(throws: IDTokenError.invalidSubject) { try validate(compact) }
    }

    // MARK: aud and azp

    @Test("an audience that is not trusted is refused even when azp is this client")
    func untrustedAudience() throws {
        let compact = try base.token(["aud": [.string(IDTokenValidatorTests.clientID), "someone-else"],
                                      "azp": .string(IDTokenValidatorTests.clientID)])
        #expect(throws: IDTokenError.untrustedAudience) { try validate(compact) }
    }

    @Test("aud must be a string or a non-empty array of strings", arguments: [JSONValue.array([]), [1], ["regstate-app", 2], 7])
    func audienceShape(audience: JSONValue) throws {
        let compact = try base.token(["aud": audience])
        #expect(throws: IDTokenError.audienceMismatch) { try validate(compact) }
    }

    @Test("an azp that is not a string is refused")
    func authorizedPartyNotString() throws {
        let compact = try base.token(["azp": 5])
        #expect(throws: IDTokenError.authorizedPartyMismatch) { try validate(compact) }
    }

    // MARK: exp, iat, nbf

    @Test("a time claim out of the sane range is refused, not trapped",
          arguments: [("exp", 1e300), ("exp", -1), ("iat", 1e20), ("iat", -5), ("nbf", 3e11)])
    func timeOutOfRange(name: String, value: Double) throws {
        let compact = try base.token([name: .number(value)])
        #expect(throws: IDTokenError.invalidTimeClaim(name)) { try validate(compact) }
    }

    @Test("nbf later than now plus leeway is refused; within the leeway it is accepted")
    func notBefore() throws {
        #expect(throws: IDTokenError.notYetValid) { try validate(try base.token(["nbf": .number(seconds + 61)])) }
        _ = try validate(try base.token(["nbf": .number(seconds + 59)]))
        #expect(throws: IDTokenError.invalidTimeClaim("nbf")) { try validate(try base.token(["nbf": "soon"])) }
    }

    // MARK: header

    @Test("crit naming an extension is refused (RFC 7515 §4.1.11)")
    func criticalHeader() throws {
        let compact = try JSONWebToken.sign(header: ["crit": ["exp"], "exp": 1], claims: base.claims(), keyID: "k1",
                                            privateKey: CryptoTestKeys.primary, algorithm: .rs256, crypto: SystemCrypto())
        #expect(throws: IDTokenError.invalidJWT(.unsupportedCriticalHeader)) { try validate(compact) }
    }

    @Test("jwk, jku and x5u in the header never choose the key (RFC 8725 §3.10)")
    func embeddedKeysIgnored() throws {
        let attacker = JSONWebKey(publicKey: CryptoTestKeys.otherPublic, keyID: "k1")
        let embedded: [String: JSONValue] = [
            "jwk": ["kty": "RSA", "n": .string(attacker.modulus ?? ""), "e": .string(attacker.exponent ?? "")],
            "jku": "https://attacker.example/jwks.json", "x5u": "https://attacker.example/cert.pem",
        ]
        let forged = try JSONWebToken.sign(header: embedded, claims: base.claims(), keyID: "k1",
                                           privateKey: CryptoTestKeys.other, algorithm: .rs256, crypto: SystemCrypto())
        #expect(throws: IDTokenError.invalidSignature) { try validate(forged) }
        let unnamed = try JSONWebToken.sign(header: embedded, claims: base.claims(), keyID: "attacker",
                                            privateKey: CryptoTestKeys.other, algorithm: .rs256, crypto: SystemCrypto())
        #expect(throws: IDTokenError.unknownKeyID("attacker")) { try validate(unnamed) }
    }

    @Test("a duplicate alg in the header is refused, whatever the signature says")
    func duplicateHeaderMember() throws {
        let compact = try rawToken(header: #"{"alg":"RS256","kid":"k1","alg":"none"}"#,
                                   payload: String(decoding: JSONValue.object(base.claims()).serialized(), as: UTF8.self))
        #expect(throws: IDTokenError.invalidJWT(.invalidJSON(.header, .duplicateMember("alg")))) { try validate(compact) }
    }

    @Test("a duplicate claim in the payload is refused")
    func duplicateClaim() throws {
        let compact = try rawToken(header: #"{"alg":"RS256","kid":"k1"}"#,
                                   payload: #"{"sub":"user-42","sub":"admin","iss":"https://issuer.example.com"}"#)
        #expect(throws: IDTokenError.invalidJWT(.invalidJSON(.payload, .duplicateMember("sub")))) { try validate(compact) }
    }

    @Test("a kid that is not a string is refused")
    func keyIDNotString() throws {
        let compact = try rawToken(header: #"{"alg":"RS256","kid":7}"#, payload: "{}")
        #expect(throws: IDTokenError.invalidJWT(.invalidHeaderMember("kid"))) { try validate(compact) }
    }

    @Test("a compact token over 16 KiB is refused before it is decoded")
    func sizeLimit() throws {
        let compact = try base.token(["pad": .string(String(repeating: "p", count: 13_000))])
        #expect(compact.utf8.count > JSONWebToken.maximumCompactLength)
        #expect(throws: IDTokenError.invalidJWT(.tooLarge(limit: 16_384))) { try validate(compact) }
        _ = try validate(try base.token(["pad": .string(String(repeating: "p", count: 11_000))]))
    }

    // MARK: key and algorithm

    @Test("the key type must fit the algorithm: an ES256 header naming an RSA key is refused")
    func keyTypeMismatch() throws {
        let compact = try rawToken(header: #"{"alg":"ES256","kid":"k1"}"#, payload: "{}")
        #expect(throws: IDTokenError.keyDoesNotFitAlgorithm("ES256")) { try validate(compact) }
    }

    @Test("an EC key on another curve, or published for another alg, does not fit ES256")
    func curveMismatch() {
        let p384 = JSONWebKey(keyType: "EC", keyID: "e", curve: "P-384", x: "AA", y: "AA")
        let wrongAlg = JSONWebKey(keyType: "EC", keyID: "e", algorithm: "ES384", curve: "P-256", x: "AA", y: "AA")
        let encryption = JSONWebKey(keyType: "EC", keyID: "e", use: "enc", curve: "P-256", x: "AA", y: "AA")
        for key in [p384, wrongAlg, encryption] {
            #expect(!key.fits(.es256))
            #expect(throws: IDTokenError.self) { try JSONWebKeySet(keys: [key]).indexOfKey(withID: "e", for: .es256) }
        }
        #expect(JSONWebKey(keyType: "EC", curve: "P-256").fits(.es256))
        #expect(!JSONWebKey(keyType: "EC", curve: "P-256").fits(.rs256))
    }

    // MARK: refresh (OIDC Core 12.2)

    @Test("a refreshed token with the same iss and sub is accepted, with or without a nonce")
    func refreshedAccepted() throws {
        let original = try JSONWebToken(compact: try base.token())
        for changes: [String: JSONValue?] in [["nonce": nil], [:]] {
            _ = try base.validator.validateRefreshed(try base.token(changes), original: original, keySet: base.keySet,
                                                     now: now)
        }
    }

    @Test("a refreshed token for another sub or iss is refused")
    func refreshedIdentity() throws {
        let original = try JSONWebToken(compact: try base.token())
        let otherSubject = try base.token(["sub": "user-43"])
        #expect(throws: IDTokenError.refreshedIdentityMismatch) {
            try base.validator.validateRefreshed(otherSubject, original: original, keySet: base.keySet, now: now)
        }
        var otherIssuer = base.validator
        otherIssuer.issuer = "https://other.example.com"
        #expect(throws: IDTokenError.refreshedIdentityMismatch) {
            try otherIssuer.validateRefreshed(try base.token(["iss": "https://other.example.com", "sub": "x"]),
                                              original: try JSONWebToken(compact: try base.token()), keySet: base.keySet,
                                              now: now)
        }
    }

    @Test("a refreshed token with another nonce is refused")
    func refreshedNonce() throws {
        let original = try JSONWebToken(compact: try base.token())
        #expect(throws: IDTokenError.nonceMismatch) {
            try base.validator.validateRefreshed(try base.token(["nonce": "n-other"]), original: original,
                                                 keySet: base.keySet, now: now)
        }
    }

    @Test("a refreshed token gets every other check too: expiry, signature, audience")
    func refreshedChecks() throws {
        let original = try JSONWebToken(compact: try base.token())
        let cases: [(String, IDTokenError)] = [
            (try base.token(["exp": .number(seconds - 120)]), .expired(at: Date(timeIntervalSince1970: seconds - 120))),
            (try base.token(key: CryptoTestKeys.other), .invalidSignature),
            (try base.token(["aud": "other-app"]), .audienceMismatch),
        ]
        for (token, expected) in cases {
            #expect(throws: expected) {
                try base.validator.validateRefreshed(token, original: original, keySet: base.keySet, now: now)
            }
        }
    }

    // MARK: discovery

    @Test("the accepted algorithms follow discovery: RS256 when silent, the listed ones of RS256/PS256/ES256")
    func discoveryAlgorithms() throws {
        let endpoint = URL(string: "https://idp.example/x")!
        var metadata = ProviderMetadata(issuer: "https://idp.example", authorizationEndpoint: endpoint,
                                        tokenEndpoint: endpoint, jwksURI: endpoint)
        #expect(try metadata.acceptedIDTokenAlgorithms() == [.rs256])
        metadata.idTokenSigningAlgValuesSupported = ["ES256", "HS256", "PS512", "PS256", "EdDSA"]
        #expect(try metadata.acceptedIDTokenAlgorithms() == [.es256, .ps256])
        metadata.idTokenSigningAlgValuesSupported = ["RS256", "none"]
        #expect(throws: IDTokenError.unsignedTokensAdvertised) { try metadata.acceptedIDTokenAlgorithms() }
    }

    @Test("new error messages never contain the token")
    func messages() throws {
        let segments = try base.token().split(separator: ".").map(String.init)
        let errors: [IDTokenError] = [
            .invalidJWT(.tooLarge(limit: 1)), .invalidJWT(.invalidJSON(.header, .duplicateMember("alg"))),
            .keyDoesNotFitAlgorithm("ES256"), .untrustedAudience, .notYetValid, .invalidTimeClaim("exp"),
            .invalidSubject, .refreshedIdentityMismatch, .unsignedTokensAdvertised,
        ]
        for error in errors {
            let message = error.localizedDescription
            #expect(!message.isEmpty)
            for segment in segments { #expect(!message.contains(segment)) }
        }
    }
}
