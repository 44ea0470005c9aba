import Foundation
import Testing
@testable import RegState
import RegStateSimulator

@Suite("Token response parsing")
struct OIDCTokenResponseTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let response: HTTPResponse
        let expected: Result<TokenResponse, OIDCError>
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "valid",
             response: OIDCFixtures.raw(200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt","id_token":"a.b.c","scope":"openid email"}"#),
             expected: .success(TokenResponse(accessToken: "at", tokenType: "Bearer", expiresIn: 3600, refreshToken: "rt",
                                              idToken: "a.b.c", scope: "openid email"))),
        Case(name: "lower-case bearer, refresh lifetime",
             response: OIDCFixtures.raw(200, #"{"access_token":"at","token_type":"bearer","refresh_expires_in":"1800"}"#),
             expected: .success(TokenResponse(accessToken: "at", refreshExpiresIn: 1800))),
        Case(name: "missing token_type is Bearer",
             response: OIDCFixtures.raw(200, #"{"access_token":"at","refresh_token_expires_in":60}"#),
             expected: .success(TokenResponse(accessToken: "at", refreshExpiresIn: 60))),
        Case(name: "expires_in as string",
             response: OIDCFixtures.raw(200, #"{"access_token":"at","token_type":"Bearer","expires_in":"120"}"#),
             expected: .success(TokenResponse(accessToken: "at", expiresIn: 120))),
        Case(name: "expires_in not a number",
             response: OIDCFixtures.raw(200, #"{"access_token":"at","token_type":"Bearer","expires_in":"soon"}"#),
             expected: .failure(.malformedResponse("expires_in is not a number"))),
        Case(name: "missing access_token",
             response: OIDCFixtures.raw(200, #"{"token_type":"Bearer","expires_in":3600}"#),
             expected: .failure(.malformedResponse("the token response has no access_token"))),
        Case(name: "empty access_token",
             response: OIDCFixtures.raw(200, #"{"access_token":"","token_type":"Bearer"}"#),
             expected: .failure(.malformedResponse("the token response has no access_token"))),
        Case(name: "DPoP token type (RFC 9449 §5), any case",
             response: OIDCFixtures.raw(200, #"{"access_token":"at","token_type":"dpop"}"#),
             expected: .success(TokenResponse(accessToken: "at", tokenType: "DPoP"))),
        Case(name: "unknown token type",
             response: OIDCFixtures.raw(200, #"{"access_token":"at","token_type":"mac"}"#),
             expected: .failure(.malformedResponse("the token type is neither Bearer nor DPoP"))),
        Case(name: "non-JSON 200",
             response: OIDCFixtures.raw(200, "{\"access_tok", contentType: "application/json"),
             expected: .failure(.malformedResponse("the token response is not a JSON object"))),
        Case(name: "HTML 200 (a captive portal's page) is not the provider",
             response: OIDCFixtures.raw(200, "<html>proxy login</html>", contentType: "text/html"),
             expected: .failure(.notTheProvider(status: 200))),
        Case(name: "HTML 403 without a content type is not the provider",
             response: OIDCFixtures.raw(403, "  <!DOCTYPE html><html>blocked</html>", contentType: "application/octet-stream"),
             expected: .failure(.notTheProvider(status: 403))),
        Case(name: "511 is a captive portal", response: HTTPResponse(status: 511),
             expected: .failure(.notTheProvider(status: 511))),
        Case(name: "408 is the server's trouble", response: HTTPResponse(status: 408),
             expected: .failure(.server(status: 408))),
        Case(name: "400 with an empty body (Glewlwyd's retired token) is unexpected until asked twice",
             response: HTTPResponse(status: 400), expected: .failure(.unexpectedStatus(400))),
        Case(name: "400 invalid_grant",
             response: OIDCFixtures.raw(400, #"{"error":"invalid_grant","error_description":"The refresh token has expired."}"#),
             expected: .failure(.oauth(error: "invalid_grant", description: "The refresh token has expired.", status: 400))),
        Case(name: "401 invalid_client without description",
             response: OIDCFixtures.raw(401, #"{"error":"invalid_client"}"#),
             expected: .failure(.oauth(error: "invalid_client", description: nil, status: 401))),
        Case(name: "400 without an OAuth body",
             response: OIDCFixtures.raw(400, "bad", contentType: "text/plain"),
             expected: .failure(.unexpectedStatus(400))),
        Case(name: "500", response: OIDCFixtures.raw(500, #"{"error":"server_error"}"#),
             expected: .failure(.server(status: 500))),
        Case(name: "503 without body", response: HTTPResponse(status: 503), expected: .failure(.server(status: 503))),
    ]

    @Test("Token endpoint responses", arguments: cases)
    func table(_ testCase: Case) {
        let result = Result { () throws(OIDCError) -> TokenResponse in try TokenResponse.parse(testCase.response) }
        #expect(result == testCase.expected)
    }

    static let classification: [(OIDCError, Bool, Bool)] = [
        (.transport(.offline), true, false),
        (.transport(.timedOut), true, false),
        (.transport(.invalidRequest("x")), false, false),
        (.server(status: 500), true, false),
        (.malformedResponse("x"), true, false),
        (.oauth(error: "invalid_grant", description: nil, status: 400), false, true),
        (.oauth(error: "unauthorized_client", description: nil, status: 400), false, true),
        (.oauth(error: "invalid_client", description: nil, status: 401), false, true),
        (.oauth(error: "invalid_scope", description: nil, status: 400), false, true),
        (.oauth(error: "invalid_request", description: nil, status: 400), false, true),
        (.oauth(error: "temporarily_unavailable", description: nil, status: 400), true, false),
        // RFC 9449 §8: a nonce the server asks for says nothing about the grant; the session and its tokens stay.
        (.oauth(error: "use_dpop_nonce", description: nil, status: 400), true, false),
        (.oauth(error: "invalid_dpop_proof", description: nil, status: 400), true, false),
        (.oauth(error: "unsupported_token_type", description: nil, status: 400), false, false),
        (.unexplainedRefusal(status: 400, error: nil), false, true),
        (.notTheProvider(status: 403), true, false),
        (.server(status: 408), true, false),
        (.unexpectedStatus(404), false, false),
    ]

    @Test("Transient and refusal classification", arguments: classification)
    func classify(_ error: OIDCError, _ transient: Bool, _ refusal: Bool) {
        #expect(error.isTransient == transient)
        #expect(error.isRefusal == refusal)
    }

    @Test("The description and mirror of a token response show no token")
    func redacted() {
        let response = TokenResponse(accessToken: "secret-access", expiresIn: 60, refreshToken: "secret-refresh",
                                     idToken: "secret-id")
        var dumped = ""
        dump(response, to: &dumped)
        for text in [response.description, String(reflecting: response), dumped] {
            #expect(!text.contains("secret"))
        }
        #expect(response.description.contains("expiresIn: 60"))
    }

    @Test("Exchange and refresh send the grant parameters as a form to the token endpoint")
    func requestBuilding() async throws {
        let transport = OIDCFixtures.provider { request in
            request.url.path == "/oauth/token"
                ? .json(200, ["access_token": "at", "token_type": "Bearer", "expires_in": 60]) : nil
        }
        let client = OIDCFixtures.client(transport)
        let authorization = try await client.makeAuthorizationRequest()
        _ = try await client.exchangeCode("the-code", for: authorization)
        _ = try await client.refresh(refreshToken: "the-refresh", scope: "openid")
        let posts = transport.requests(to: "/oauth/token")
        try #require(posts.count == 2)
        #expect(posts[0].method == .post)
        #expect(posts[0].header("content-type") == "application/x-www-form-urlencoded")
        #expect(posts[0].formParameters == [
            "grant_type": "authorization_code", "code": "the-code", "redirect_uri": "com.example.app:/callback",
            "code_verifier": authorization.codeVerifier, "client_id": "client-1",
        ])
        #expect(posts[1].formParameters == [
            "grant_type": "refresh_token", "refresh_token": "the-refresh", "client_id": "client-1", "scope": "openid",
        ])
    }

    @Test("A transport failure at the token endpoint is a transient transport error")
    func transportFailure() async throws {
        let transport = OIDCCannedTransport { request throws(TransportError) in
            if request.url.path == "/.well-known/openid-configuration" { return .json(200, OIDCFixtures.discovery()) }
            throw .timedOut
        }
        let client = OIDCFixtures.client(transport)
        do throws(OIDCError) {
            _ = try await client.refresh(refreshToken: "r")
            Issue.record("expected a failure")
        } catch {
            #expect(error == .transport(.timedOut))
            #expect(error.isTransient)
        }
    }
}
