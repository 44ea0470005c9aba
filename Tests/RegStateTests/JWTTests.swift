import Foundation
import Testing

import RegState
import RegStateOngoingAccess
import RegStateTestSupport

@Suite("JSONWebToken")
struct JWTTests {
    let crypto = SystemCrypto()

    @Test("the RFC 7515 A.2 token parses and verifies")
    func rfc7515Token() throws {
        let token = try JSONWebToken(compact: RFC7515A2.compact)
        #expect(token.algorithm == "RS256")
        #expect(token.signatureAlgorithm == .rs256)
        #expect(token.keyID == nil)
        #expect(token.issuer == "joe")
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_300_819_380))
        #expect(token.claims["http://example.com/is_root"] == .bool(true))
        #expect(token.signingInput == Data(RFC7515A2.signingInput.utf8))
        #expect(token.compactSerialization == RFC7515A2.compact)
        #expect(try token.verifySignature(with: RFC7515A2.publicKey, crypto: crypto))
        #expect(try !token.verifySignature(with: CryptoTestKeys.primaryPublic, crypto: crypto))
    }

    @Test("sign then parse round-trips", arguments: SignatureAlgorithm.allCases.filter(\.isRSA))
    func signParseRoundTrip(algorithm: SignatureAlgorithm) throws {
        let claims: [String: JSONValue] = [
            "iss": "https://issuer.example", "sub": "user-1", "aud": ["app", "api"], "exp": 1_800_000_600,
            "iat": 1_800_000_000, "nonce": "n-0S6", "azp": "app", "email_verified": true, "name": "Zoë",
        ]
        let compact = try JSONWebToken.sign(
            header: ["cty": "example"], claims: claims, keyID: "key-1", privateKey: CryptoTestKeys.primary,
            algorithm: algorithm, crypto: crypto)
        let token = try JSONWebToken(compact: compact)
        #expect(token.header == ["alg": .string(algorithm.rawValue), "typ": "JWT", "kid": "key-1", "cty": "example"])
        #expect(token.claims == claims)
        #expect(token.keyID == "key-1")
        #expect(token.subject == "user-1")
        #expect(token.audience == ["app", "api"])
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(token.nonce == "n-0S6")
        #expect(token.claims["azp"]?.stringValue == "app")
        #expect(try token.verifySignature(with: CryptoTestKeys.primaryPublic, crypto: crypto))
        #expect(try !token.verifySignature(with: CryptoTestKeys.otherPublic, crypto: crypto))
    }

    @Test("changing the claims after signing breaks the signature")
    func tamperedClaims() throws {
        let compact = try JSONWebToken.sign(
            claims: ["sub": "alice"], keyID: nil, privateKey: CryptoTestKeys.primary, algorithm: .rs256,
            crypto: crypto)
        let parts = compact.split(separator: ".").map(String.init)
        let forged = Base64URL.encode(JSONValue.object(["sub": "mallory"]).serialized())
        let token = try JSONWebToken(compact: "\(parts[0]).\(forged).\(parts[2])")
        #expect(token.subject == "mallory")
        #expect(try !token.verifySignature(with: CryptoTestKeys.primaryPublic, crypto: crypto))
    }

    @Test("a single-string audience is a one-element list")
    func audienceString() throws {
        let token = try JSONWebToken(compact: Self.unsigned(header: ["alg": "RS256"], claims: ["aud": "app"]))
        #expect(token.audience == ["app"])
        let none = try JSONWebToken(compact: Self.unsigned(header: ["alg": "RS256"], claims: [:]))
        #expect(none.audience.isEmpty)
        #expect(none.expiresAt == nil)
    }

    struct MalformedCase: Sendable, CustomTestStringConvertible {
        let name: String
        let compact: String
        let error: JWTError
        var testDescription: String { name }
    }

    static let malformedCases: [MalformedCase] = {
        let header = Base64URL.encode(Data(#"{"alg":"RS256"}"#.utf8))
        let payload = Base64URL.encode(Data(#"{"sub":"x"}"#.utf8))
        func segment(_ json: String) -> String { Base64URL.encode(Data(json.utf8)) }
        return [
            MalformedCase(name: "empty", compact: "", error: .wrongSegmentCount(1)),
            MalformedCase(name: "one segment", compact: header, error: .wrongSegmentCount(1)),
            MalformedCase(name: "two segments", compact: "\(header).\(payload)", error: .wrongSegmentCount(2)),
            MalformedCase(name: "four segments", compact: "\(header).\(payload).AA.AA", error: .wrongSegmentCount(4)),
            MalformedCase(name: "empty header", compact: ".\(payload).AA", error: .invalidBase64URL(.header)),
            MalformedCase(name: "header not base64url", compact: "e+J9.\(payload).AA", error: .invalidBase64URL(.header)),
            MalformedCase(name: "payload not base64url", compact: "\(header).!!.AA", error: .invalidBase64URL(.payload)),
            MalformedCase(name: "empty payload", compact: "\(header)..AA", error: .invalidBase64URL(.payload)),
            MalformedCase(
                name: "signature not base64url", compact: "\(header).\(payload).a b", error: .invalidBase64URL(.signature)),
            MalformedCase(
                name: "header not JSON", compact: "\(segment("alg")).\(payload).AA",
                error: .invalidJSON(.header, .unexpectedByte(offset: 0))),
            MalformedCase(
                name: "header a JSON array", compact: "\(segment(#"["RS256"]"#)).\(payload).AA", error: .notJSONObject(.header)),
            MalformedCase(name: "payload a JSON string", compact: "\(header).\(segment(#""x""#)).AA", error: .notJSONObject(.payload)),
            MalformedCase(name: "missing alg", compact: "\(segment(#"{"typ":"JWT"}"#)).\(payload).AA", error: .missingAlgorithm),
            MalformedCase(name: "alg not a string", compact: "\(segment(#"{"alg":256}"#)).\(payload).AA", error: .missingAlgorithm),
            MalformedCase(
                name: "critical extension", compact: "\(segment(#"{"alg":"RS256","crit":["exp"]}"#)).\(payload).AA",
                error: .unsupportedCriticalHeader),
        ]
    }()

    @Test("malformed compact tokens are refused", arguments: malformedCases)
    func malformed(testCase: MalformedCase) {
        #expect(throws: testCase.error) { try JSONWebToken(compact: testCase.compact) }
    }

    @Test("an unsigned token with an empty signature still parses, so verification can refuse it")
    func emptySignatureParses() throws {
        let token = try JSONWebToken(compact: Self.unsigned(header: ["alg": "none"], claims: ["sub": "x"]))
        #expect(token.signature.isEmpty)
        #expect(token.signatureAlgorithm == nil)
    }

    @Test("descriptions and reflection never show the token")
    func redaction() throws {
        let compact = try JSONWebToken.sign(
            claims: ["sub": "secret-subject", "email": "someone@example.com"], keyID: "kid-7",
            privateKey: CryptoTestKeys.primary, algorithm: .rs256, crypto: crypto)
        let token = try JSONWebToken(compact: compact)
        var dumped = ""
        dump(token, to: &dumped)
        let renderings = [String(describing: token), String(reflecting: token), "\(token)", dumped]
        let segments = compact.split(separator: ".").map(String.init)
        for text in renderings {
            #expect(text.contains("kid-7"))
            #expect(!text.contains("secret-subject"))
            #expect(!text.contains("someone@example.com"))
            for segment in segments {
                #expect(!text.contains(segment))
            }
        }
    }

    @Test("error messages never contain the token")
    func errorMessages() {
        let errors: [JWTError] = [
            .wrongSegmentCount(2), .invalidBase64URL(.payload), .notJSONObject(.header), .missingAlgorithm,
            .unsupportedCriticalHeader, .unsupportedAlgorithm(String(repeating: "H", count: 500)),
            .invalidKey("missing n"),
        ]
        for error in errors {
            let message = error.localizedDescription
            #expect(!message.isEmpty)
            #expect(message.count < 200)
        }
    }

    /// A compact token with the given header and claims and an empty signature.
    static func unsigned(header: [String: JSONValue], claims: [String: JSONValue]) -> String {
        let headerSegment = Base64URL.encode(JSONValue.object(header).serialized())
        let payloadSegment = Base64URL.encode(JSONValue.object(claims).serialized())
        return "\(headerSegment).\(payloadSegment)."
    }
}
