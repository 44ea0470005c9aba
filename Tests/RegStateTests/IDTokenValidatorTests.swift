import Foundation
import Testing

import RegState
import RegStateOngoingAccess
import RegStateTesting
import RegStateSimulator

/// OpenID Connect Core §3.1.3.7, one test per rejection plus the accepted cases, at a fixed instant.
@Suite("IDTokenValidator")
struct IDTokenValidatorTests {
    static let issuer = "https://issuer.example.com"
    static let clientID = "regstate-app"
    let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { clock.now() }
    let crypto = SystemCrypto()
    let validator = IDTokenValidator(issuer: issuer, clientID: clientID)
    let keySet = JSONWebKeySet(keys: [
        JSONWebKey(publicKey: CryptoTestKeys.primaryPublic, keyID: "k1"),
        JSONWebKey(publicKey: CryptoTestKeys.otherPublic, keyID: "k-other", algorithm: .ps256),
    ])

    /// The claims of a valid token at `now`; `changes` overrides members (`nil` removes one).
    func claims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        let seconds = Int(now.timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(Self.issuer), "sub": "user-42", "aud": .string(Self.clientID),
            "exp": .number(Double(seconds + 600)), "iat": .number(Double(seconds - 5)), "nonce": "n-123",
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    func token(
        _ changes: [String: JSONValue?] = [:], keyID: String? = "k1", key: RSAPrivateKey = CryptoTestKeys.primary,
        algorithm: SignatureAlgorithm = .rs256
    ) throws -> String {
        try JSONWebToken.sign(
            claims: claims(changes), keyID: keyID, privateKey: key, algorithm: algorithm, crypto: crypto)
    }

    func validate(_ token: String, nonce: String? = "n-123", keys: JSONWebKeySet? = nil) throws(IDTokenError)
        -> JSONWebToken
    {
        try validator.validate(token, keySet: keys ?? keySet, expectedNonce: nonce, now: now)
    }

    // MARK: Accepted

    @Test("a valid token is returned parsed")
    func valid() throws {
        let validated = try validate(try token())
        #expect(validated.subject == "user-42")
        #expect(validated.keyID == "k1")
    }

    @Test("PS256 is accepted with a key published for PS256")
    func validPS256() throws {
        let validated = try validate(try token(keyID: "k-other", key: CryptoTestKeys.other, algorithm: .ps256))
        #expect(validated.algorithm == "PS256")
    }

    @Test("several audiences are accepted when every one is trusted and azp is this client")
    func validWithAuthorizedParty() throws {
        var trusting = validator
        trusting.trustedAudiences = ["api"]
        let compact = try token(["aud": [.string(Self.clientID), "api"], "azp": .string(Self.clientID)])
        _ = try trusting.validate(compact, keySet: keySet, expectedNonce: "n-123", now: now)
    }

    @Test("no kid is accepted when the key set has exactly one signing key")
    func validWithoutKeyID() throws {
        let single = JSONWebKeySet(keys: [JSONWebKey(publicKey: CryptoTestKeys.primaryPublic, keyID: "k1")])
        _ = try validate(try token(keyID: nil), keys: single)
    }

    @Test("no nonce check when none was expected")
    func noExpectedNonce() throws {
        _ = try validate(try token(["nonce": nil]), nonce: nil)
        _ = try validate(try token(["nonce": "whatever"]), nonce: nil)
    }

    @Test("exp and iat within the leeway are accepted")
    func withinLeeway() throws {
        let seconds = now.timeIntervalSince1970
        _ = try validate(try token(["exp": .number(seconds - 59)]))
        _ = try validate(try token(["iat": .number(seconds + 59)]))
    }

    // MARK: Rejected, in validation order

    @Test("a malformed token is rejected", arguments: ["", "abc", "a.b", "a.b.c", "eyJhbGciOiJSUzI1NiJ9.e30.!"])
    func malformed(compact: String) {
        #expect(performing: { try validate(compact) }, throws: { error in
            if case IDTokenError.invalidJWT = error { return true }
            return false
        })
    }

    @Test("alg none is rejected")
    func algorithmNone() throws {
        let unsigned = JWTTests.unsigned(header: ["alg": "none", "kid": "k1"], claims: claims())
        #expect(throws: IDTokenError.unsupportedAlgorithm("none")) { try validate(unsigned) }
    }

    @Test("HS256 keyed with the public modulus is rejected (algorithm confusion)")
    func algorithmHMAC() throws {
        let header = Base64URL.encode(JSONValue.object(["alg": "HS256", "kid": "k1"]).serialized())
        let payload = Base64URL.encode(JSONValue.object(claims()).serialized())
        let mac = crypto.hmacSHA256(key: CryptoTestKeys.primaryPublic.modulus, message: Data("\(header).\(payload)".utf8))
        #expect(throws: IDTokenError.unsupportedAlgorithm("HS256")) {
            try validate("\(header).\(payload).\(Base64URL.encode(mac))")
        }
    }

    @Test("an algorithm outside the allowed set is rejected")
    func algorithmNotAllowed() throws {
        let compact = try token(algorithm: .ps512)
        #expect(throws: IDTokenError.unsupportedAlgorithm("PS512")) { try validate(compact) }
    }

    @Test("an unknown kid is reported so the caller can refetch the key set")
    func unknownKeyID() throws {
        let compact = try token(keyID: "rotated")
        #expect(throws: IDTokenError.unknownKeyID("rotated")) { try validate(compact) }
        #expect(IDTokenError.unknownKeyID("rotated").suggestsKeyRefresh)
        #expect(!IDTokenError.invalidSignature.suggestsKeyRefresh)
        // Once the refreshed set has the key, the same token validates.
        let refreshed = JSONWebKeySet(keys: [JSONWebKey(publicKey: CryptoTestKeys.primaryPublic, keyID: "rotated")])
        _ = try validate(compact, keys: refreshed)
    }

    @Test("no kid with several keys in the set is an unknown key")
    func ambiguousKey() throws {
        let compact = try token(keyID: nil)
        #expect(throws: IDTokenError.unknownKeyID(nil)) { try validate(compact) }
    }

    @Test("a signature by another key is rejected")
    func wrongKey() throws {
        let compact = try token(key: CryptoTestKeys.other)
        #expect(throws: IDTokenError.invalidSignature) { try validate(compact) }
    }

    @Test("changed claims are rejected")
    func tamperedClaims() throws {
        let parts = try token().split(separator: ".").map(String.init)
        let forged = Base64URL.encode(JSONValue.object(claims(["sub": "admin"])).serialized())
        #expect(throws: IDTokenError.invalidSignature) { try validate("\(parts[0]).\(forged).\(parts[2])") }
    }

    @Test("a key published for another algorithm is not used")
    func keyAlgorithmMismatch() throws {
        // k-other is published for PS256; an RS256 token by the same key must not verify under it.
        let compact = try token(keyID: "k-other", key: CryptoTestKeys.other, algorithm: .rs256)
        #expect(throws: IDTokenError.keyDoesNotFitAlgorithm("RS256")) { try validate(compact) }
    }

    @Test("an unusable key in the set is an invalid signature")
    func unusableKey() throws {
        let broken = JSONWebKeySet(keys: [JSONWebKey(keyType: "RSA", keyID: "k1", modulus: "AQAB", exponent: "AQAB")])
        #expect(throws: IDTokenError.invalidSignature) { try validate(try token(), keys: broken) }
    }

    @Test("another issuer is rejected, compared exactly", arguments: ["https://evil.example.com", "https://issuer.example.com/"])
    func issuerMismatch(found: String) throws {
        let compact = try token(["iss": .string(found)])
        #expect(throws: IDTokenError.issuerMismatch(expected: Self.issuer, found: found)) { try validate(compact) }
    }

    @Test("a missing issuer is rejected")
    func issuerMissing() throws {
        let compact = try token(["iss": nil])
        #expect(throws: IDTokenError.issuerMismatch(expected: Self.issuer, found: nil)) { try validate(compact) }
    }

    @Test("an audience without this client is rejected", arguments: [JSONValue.string("other-app"), ["a", "b"], nil])
    func audienceMismatch(audience: JSONValue?) throws {
        let compact = try token(["aud": audience])
        #expect(throws: IDTokenError.audienceMismatch) { try validate(compact) }
    }

    @Test("several audiences without azp are rejected")
    func multipleAudiencesWithoutAuthorizedParty() throws {
        var trusting = validator
        trusting.trustedAudiences = ["api"]
        let compact = try token(["aud": [.string(Self.clientID), "api"]])
        #expect(throws: IDTokenError.authorizedPartyMismatch) {
            try trusting.validate(compact, keySet: keySet, expectedNonce: "n-123", now: now)
        }
    }

    @Test("an azp that is not this client is rejected")
    func authorizedPartyMismatch() throws {
        let compact = try token(["azp": "other-app"])
        #expect(throws: IDTokenError.authorizedPartyMismatch) { try validate(compact) }
    }

    @Test("an expired token is rejected once the leeway has passed")
    func expired() throws {
        let expiry = now.addingTimeInterval(600)
        let compact = try token()
        clock.advance(by: 600 + 60)
        #expect(throws: IDTokenError.expired(at: expiry)) { try validate(compact) }
    }

    @Test("a missing exp is malformed")
    func missingExpiry() throws {
        let compact = try token(["exp": nil])
        #expect(throws: IDTokenError.malformed("no numeric \"exp\" claim")) { try validate(compact) }
    }

    @Test("a token issued beyond the leeway in the future is rejected")
    func issuedInFuture() throws {
        let compact = try token(["iat": .number(now.timeIntervalSince1970 + 61)])
        #expect(throws: IDTokenError.issuedInFuture) { try validate(compact) }
    }

    @Test("a missing iat is malformed")
    func missingIssuedAt() throws {
        let compact = try token(["iat": nil])
        #expect(throws: IDTokenError.malformed("no numeric \"iat\" claim")) { try validate(compact) }
    }

    @Test("a token older than the maximum age is rejected")
    func tooOld() throws {
        var strict = validator
        strict.maximumAge = 300
        strict.leeway = 0
        let compact = try token(["iat": .number(now.timeIntervalSince1970 - 301), "exp": .number(now.timeIntervalSince1970 + 600)])
        #expect(throws: IDTokenError.tooOld) {
            try strict.validate(compact, keySet: keySet, expectedNonce: "n-123", now: now)
        }
        let fresh = try token(["iat": .number(now.timeIntervalSince1970 - 299)])
        _ = try strict.validate(fresh, keySet: keySet, expectedNonce: "n-123", now: now)
    }

    @Test("a missing or different nonce is rejected when one is expected", arguments: [JSONValue?.none, "n-other", 123])
    func nonceMismatch(nonce: JSONValue?) throws {
        let compact = try token(["nonce": nonce])
        #expect(throws: IDTokenError.nonceMismatch) { try validate(compact) }
    }

    @Test("a missing subject is malformed")
    func missingSubject() throws {
        let compact = try token(["sub": nil])
        #expect(throws: IDTokenError.malformed("no string \"sub\" claim")) { try validate(compact) }
    }

    @Test("the first failing check is the one reported")
    func order() throws {
        // Wrong key and wrong issuer: the signature is checked first.
        let badSignature = try token(["iss": "https://evil.example.com"], key: CryptoTestKeys.other)
        #expect(throws: IDTokenError.invalidSignature) { try validate(badSignature) }
        // Wrong issuer and expired: the issuer is checked first.
        let badIssuer = try token(["iss": "https://evil.example.com", "exp": 1])
        #expect(throws: IDTokenError.issuerMismatch(expected: Self.issuer, found: "https://evil.example.com")) {
            try validate(badIssuer)
        }
        // Expired and wrong nonce: expiry is checked first.
        let expired = try token(["exp": 1, "nonce": "n-other"])
        #expect(throws: IDTokenError.expired(at: Date(timeIntervalSince1970: 1))) { try validate(expired) }
    }

    @Test("error messages never contain the token")
    func messages() throws {
        let compact = try token()
        let segments = compact.split(separator: ".").map(String.init)
        let errors: [IDTokenError] = [
            .malformed("x"), .unsupportedAlgorithm("none"), .unknownKeyID("k"), .unknownKeyID(nil), .invalidSignature,
            .issuerMismatch(expected: Self.issuer, found: nil), .audienceMismatch, .authorizedPartyMismatch,
            .expired(at: now), .issuedInFuture, .tooOld, .nonceMismatch,
        ]
        for error in errors {
            let message = error.localizedDescription
            #expect(!message.isEmpty)
            for segment in segments { #expect(!message.contains(segment)) }
        }
        // A malformed-token error describes the structure, not the text.
        do {
            _ = try validate("\(segments[0]).\(segments[1])")
            Issue.record("a two-segment token validated")
        } catch {
            for segment in segments { #expect(!error.localizedDescription.contains(segment)) }
        }
    }
}
