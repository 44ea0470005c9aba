import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import RegState

/// RFC 9470 §3 challenges read by the one `WWW-Authenticate` reader: Bearer and DPoP, quoted and unquoted
/// parameters, several challenges in one field; hostile fields and values refused.
@Suite("Step-up: reading the API's challenge")
struct StepUpChallengeParsingTests {
    static func reading(_ field: String) -> StepUpChallenge.Reading { StepUpChallenge.reading(field) }

    struct Case: Sendable, CustomStringConvertible {
        let field: String
        let maxAge: Int?
        let acr: [String]
        let scheme: String
        var description: String { field }
    }

    @Test("well-formed challenges", arguments: [
        Case(field: #"Bearer error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="myACR""#,
             maxAge: nil, acr: ["myACR"], scheme: "bearer"),
        Case(field: #"Bearer error="insufficient_user_authentication", error_description="More recent authentication is required", max_age="5""#,
             maxAge: 5, acr: [], scheme: "bearer"),
        Case(field: "Bearer error=insufficient_user_authentication, max_age=300", maxAge: 300, acr: [], scheme: "bearer"),
        Case(field: #"DPoP algs="ES256", error="insufficient_user_authentication", acr_values="urn:a urn:b", max_age=0"#,
             maxAge: 0, acr: ["urn:a", "urn:b"], scheme: "dpop"),
        Case(field: #"Basic realm="x", bearer ERROR = "insufficient_user_authentication" , ACR_VALUES=gold"#,
             maxAge: nil, acr: ["gold"], scheme: "bearer"),
        Case(field: #"Bearer realm="api", error="invalid_token", DPoP error="insufficient_user_authentication", max_age=60"#,
             maxAge: 60, acr: [], scheme: "dpop"),
        Case(field: #"Bearer error="insufficient\_user_authentication", acr_values="a\"b""#, maxAge: nil, acr: [], scheme: "refused"),
    ])
    func wellFormed(_ example: Case) {
        let read = Self.reading(example.field)
        guard example.scheme != "refused" else { #expect(read == .refused); return }
        guard case .challenge(let challenge) = read else { Issue.record("\(read)"); return }
        #expect(challenge.scheme == example.scheme)
        #expect(challenge.requirement.maxAge == example.maxAge)
        #expect(challenge.requirement.acrValues == example.acr)
        #expect(challenge.requirement.acrRequired == !example.acr.isEmpty)
    }

    @Test("not a step-up challenge: other errors, other schemes, token68, no field")
    func notAChallenge() {
        #expect(Self.reading(#"Bearer error="invalid_token""#) == .none)
        #expect(Self.reading(#"Basic error="insufficient_user_authentication""#) == .none)
        #expect(Self.reading("Bearer abc.def==") == .none)
        #expect(Self.reading("Bearer") == .none)
        #expect(StepUpChallenge(response: HTTPResponse(status: 401)) == nil)
        // Only a 401 carries a challenge.
        let forbidden = HTTPResponse(status: 403, headers: ["WWW-Authenticate": "Bearer error=insufficient_user_authentication"])
        #expect(StepUpChallenge(response: forbidden) == nil)
    }

    @Test("hostile fields and values are refused, not trimmed", arguments: [
        "Bearer error=\"insufficient_user_authentication\", max_age=-1",
        "Bearer error=\"insufficient_user_authentication\", max_age=1e3",
        "Bearer error=\"insufficient_user_authentication\", max_age=99999999999",
        "Bearer error=\"insufficient_user_authentication\", max_age=2147483647",
        "Bearer error=\"insufficient_user_authentication\", max_age=\"\"",
        "Bearer error=\"insufficient_user_authentication\", max_age=5, max_age=6",
        "Bearer error=\"insufficient_user_authentication\", acr_values=\"\"",
        "Bearer error=\"insufficient_user_authentication\", acr_values=\"a  b\"",
        "Bearer error=\"insufficient_user_authentication\", acr_values=\"caf\u{e9}\"",
        "Bearer error=\"insufficient_user_authentication\", acr_values=\"a\u{7}b\"",
        "Bearer error=\"insufficient_user_authentication\", acr_values=\"unterminated",
        "Bearer error=\"insufficient_user_authentication\", acr_values=\"" + String(repeating: "x", count: 257) + "\"",
        "Bearer error=\"insufficient_user_authentication\", acr_values=\"" + (0..<17).map { "v\($0)" }.joined(separator: " ") + "\"",
        "Bearer error=\"insufficient_user_authentication\"\r\nSet-Cookie: x=y",
        "Bearer error=\"insufficient_user_authentication\", =x",
    ])
    func hostile(_ field: String) {
        #expect(Self.reading(field) == .refused)
    }

    @Test("an oversized field is not read at all")
    func oversized() {
        let field = "Bearer error=\"insufficient_user_authentication\", x=\"" + String(repeating: "a", count: 9_000) + "\""
        #expect(AuthenticationChallenges(field) == nil)
        #expect(Self.reading(field) == .none)
    }

    @Test("the DPoP nonce challenge is read by the same reader (RFC 9449 §9)")
    func dpopNonce() {
        let asks = HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#])
        #expect(DPoPContext.asksForNonce(asks))
        let bearer = HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token", error_description="use_dpop_nonce""#])
        #expect(!DPoPContext.asksForNonce(bearer))
    }

    @Test("an app reading its own HTTPURLResponse gets the same challenge")
    func urlResponse() throws {
        let url = try #require(URL(string: "https://api.example.com/pay"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 401, httpVersion: "HTTP/1.1", headerFields: [
            "WWW-Authenticate": #"Bearer error="insufficient_user_authentication", max_age="120""#]))
        #expect(StepUpChallenge(response: response)?.requirement == AuthenticationRequirement(maxAge: 120))
    }
}
