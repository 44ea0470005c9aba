import Foundation
import Testing

@testable import RegState

/// The one strict JSON reading (`JSONValue.parse`): RFC 8259 over bytes, duplicates refused, numbers range-checked,
/// size and depth bounded, and every caller that reads provider answers gets it.
@Suite("Strict JSON")
struct StrictJSONTests {
    func parse(_ text: String, limits: JSONLimits = .responseBody) throws(JSONParseError) -> JSONValue {
        try JSONValue.parse(Data(text.utf8), limits: limits)
    }

    @Test("known answer: every construct, escapes, surrogate pairs and number forms")
    func knownAnswer() throws {
        let value = try parse(#" { "s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00é", "n": [0, -0.5e2, 1E3, 12345678901234567890, 0.1],"#
            + #" "t": true, "f": false, "z": null, "o": {}, "a": [] } "#)
        #expect(value["s"] == .string("a\"\\/\u{08}\u{0C}\n\r\t\u{E9}\u{1F600}é"))
        #expect(value["n"] == [0, .number(-50), .number(1000), .number(Double("12345678901234567890")!), .number(0.1)])
        #expect(value["t"] == true)
        #expect(value["f"] == false)
        #expect(value["z"] == .null)
        #expect(value["o"] == .object([:]))
        #expect(value["a"] == .array([]))
    }

    @Test("a duplicate member name is an error, at any depth (RFC 7515 §4, RFC 7519 §4)")
    func duplicateMembers() {
        #expect(throws: JSONParseError.duplicateMember("alg")) { try parse(#"{"alg":"RS256","kid":"k","alg":"none"}"#) }
        #expect(throws: JSONParseError.duplicateMember("x")) { try parse(#"{"a":[{"x":1,"x":1}]}"#) }
    }

    @Test("a number that does not fit a finite Double is an error, not a trap or infinity")
    func numberOutOfRange() {
        #expect(throws: JSONParseError.numberOutOfRange(offset: 5)) { try parse(#"{"a":1e400}"#) }
        #expect(throws: JSONParseError.numberOutOfRange(offset: 1)) { try parse("[-1e999]") }
        // A huge integer that still fits is a number; converting it with intValue is checked, not trapped.
        let big = try? parse("[1e300]")
        #expect(big?.arrayValue?.first?.intValue == nil)
    }

    @Test("invalid number forms are refused", arguments: ["01", "-", "1.", ".5", "1e", "+1", "0x10", "NaN", "Infinity"])
    func invalidNumbers(text: String) {
        #expect(throws: JSONParseError.self) { try parse("[\(text)]") }
    }

    @Test("nesting deeper than the limit is an error")
    func depth() throws {
        let limits = JSONLimits(maximumBytes: 1 << 20, maximumDepth: 4)
        _ = try parse("[[[[1]]]]", limits: limits)
        #expect(throws: JSONParseError.tooDeep(limit: 4)) { try parse("[[[[[1]]]]]", limits: limits) }
        // The default limit holds against a deep bomb without exhausting the stack.
        let bomb = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.tooDeep(limit: 32)) { try parse(bomb) }
    }

    @Test("input over the size limit is refused before it is read; the documented maxima")
    func size() {
        #expect(throws: JSONParseError.tooLarge(limit: 10)) {
            try parse("[1,2,3,4,5,6]", limits: JSONLimits(maximumBytes: 10, maximumDepth: 8))
        }
        #expect(JSONLimits.responseBody.maximumBytes == 1_048_576)
        #expect(JSONLimits.keySet.maximumBytes == 262_144)
        #expect(JSONLimits.joseSegment.maximumBytes == 16_384)
        #expect(JSONWebToken.maximumCompactLength == 16_384)
    }

    @Test("bad strings are refused: control characters, bad escapes, lone surrogates, invalid UTF-8")
    func strings() {
        for text in ["[\"a\u{01}\"]", #"["\x"]"#, #"["\u12"]"#, #"["\ud800"]"#, #"["\udc00x"]"#, #"["\ud800\u0041"]"#] {
            #expect(throws: JSONParseError.self, "\(text.debugDescription)") { try parse(text) }
        }
        for bytes: [UInt8] in [[0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
                               [0x22, 0xE2, 0x82, 0x22]] {
            #expect(throws: JSONParseError.invalidString(offset: 0)) { try JSONValue.parse(Data(bytes)) }
        }
    }

    @Test("anything but whitespace after the value, and truncated input, are refused")
    func trailingAndTruncated() {
        #expect(throws: JSONParseError.trailingData(offset: 3)) { try parse("{} {}") }
        #expect(throws: JSONParseError.unexpectedEnd) { try parse(#"{"a":"#) }
        #expect(throws: JSONParseError.unexpectedEnd) { try parse("") }
        #expect(throws: JSONParseError.unexpectedByte(offset: 7)) { try parse(#"{"a":1,}"#) }
        #expect(throws: JSONParseError.unexpectedByte(offset: 0)) { try parse("\u{FEFF}{}") }
    }

    @Test("errors never repeat the input")
    func messages() {
        let secret = "eyJzZWNyZXQtdG9rZW4tdmFsdWUifQ"
        for text in [#"{"a":"\#(secret)","a":1}"#, #"["\#(secret)"#, #"["\#(secret)\x"]"#] {
            do {
                _ = try parse(text)
                Issue.record("parsed")
            } catch {
                #expect(!(error.errorDescription ?? "").contains(secret))
            }
        }
    }

    @Test("token, userinfo and discovery answers get the strict reading")
    func callersGetIt() throws {
        let duplicate = HTTPResponse(status: 200, body: Data(#"{"access_token":"a","token_type":"Bearer","access_token":"b"}"#.utf8))
        #expect(duplicate.jsonBody == nil)
        #expect(throws: OIDCError.malformedResponse("the token response is not a JSON object")) {
            try TokenResponse.parse(duplicate)
        }
        let discovery = Data(#"{"issuer":"https://a.example","issuer":"https://b.example","authorization_endpoint":"https://a.example/a","#
            .utf8) + Data(#""token_endpoint":"https://a.example/t","jwks_uri":"https://a.example/j"}"#.utf8)
        let duplicateIssuer = JSONParseError.duplicateMember("issuer").errorDescription ?? ""
        #expect(throws: OIDCError.malformedResponse("the discovery document is not valid (\(duplicateIssuer))")) {
            try ProviderMetadata.read(discovery: discovery)
        }
        #expect(throws: JSONWebKeySet.ParseError.json(.duplicateMember("kid"))) {
            try JSONWebKeySet.parse(Data(#"{"keys":[{"kty":"RSA","kid":"a","kid":"b"}]}"#.utf8))
        }
    }
}
