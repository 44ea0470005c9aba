import Foundation
import Testing
@testable import RegState

@Suite("Authorization callback")
struct CallbackParsingTests {
    static let state = "state-abc"
    static let issuer = "https://idp.test"

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let callback: String
        let issuerRequired: Bool
        let expected: Result<String, RegistrationFailure>
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "valid", callback: "com.example.app:/callback?code=c-1&state=state-abc&iss=https%3A%2F%2Fidp.test",
             issuerRequired: true, expected: .success("c-1")),
        Case(name: "valid without iss when not advertised", callback: "com.example.app:/callback?code=c-1&state=state-abc",
             issuerRequired: false, expected: .success("c-1")),
        Case(name: "wrong state", callback: "com.example.app:/callback?code=c-1&state=other&iss=https%3A%2F%2Fidp.test",
             issuerRequired: true, expected: .failure(.stateMismatch)),
        Case(name: "missing state", callback: "com.example.app:/callback?code=c-1&iss=https%3A%2F%2Fidp.test",
             issuerRequired: true, expected: .failure(.stateMismatch)),
        Case(name: "access_denied with description",
             callback: "com.example.app:/callback?error=access_denied&error_description=The%20user%20said%20no"
                 + "&state=state-abc&iss=https%3A%2F%2Fidp.test",
             issuerRequired: true,
             expected: .failure(.authorizationDenied(error: "access_denied", description: "The user said no"))),
        Case(name: "wrong iss", callback: "com.example.app:/callback?code=c-1&state=state-abc&iss=https%3A%2F%2Fevil.test",
             issuerRequired: true, expected: .failure(.issuerMismatchInCallback)),
        Case(name: "wrong iss while not advertised",
             callback: "com.example.app:/callback?code=c-1&state=state-abc&iss=https%3A%2F%2Fevil.test",
             issuerRequired: false, expected: .failure(.issuerMismatchInCallback)),
        Case(name: "missing iss when advertised", callback: "com.example.app:/callback?code=c-1&state=state-abc",
             issuerRequired: true, expected: .failure(.issuerMismatchInCallback)),
        Case(name: "wrong path", callback: "com.example.app:/other?code=c-1&state=state-abc&iss=https%3A%2F%2Fidp.test",
             issuerRequired: true, expected: .failure(.malformedCallback("wrong path"))),
        Case(name: "wrong scheme", callback: "com.evil.app:/callback?code=c-1&state=state-abc&iss=https%3A%2F%2Fidp.test",
             issuerRequired: true, expected: .failure(.malformedCallback("wrong scheme"))),
        Case(name: "missing code", callback: "com.example.app:/callback?state=state-abc&iss=https%3A%2F%2Fidp.test",
             issuerRequired: true, expected: .failure(.malformedCallback("no code"))),
    ]

    @Test("Custom-scheme callback table", arguments: cases)
    func table(_ testCase: Case) throws {
        let callback = try #require(URL(string: testCase.callback))
        let result = Result { () throws(RegistrationFailure) -> String in
            try AuthorizationCallback.code(
                from: callback, expectedRedirect: OIDCFixtures.redirectURI, expectedState: Self.state,
                issuer: Self.issuer, issuerRequired: testCase.issuerRequired)
        }
        #expect(result == testCase.expected)
    }

    static let loopbackCases: [(String, Result<String, RegistrationFailure>)] = [
        ("http://127.0.0.1:8400/callback?code=c-2&state=state-abc", .success("c-2")),
        ("http://127.0.0.1:8401/callback?code=c-2&state=state-abc", .failure(.malformedCallback("wrong host or port"))),
        ("http://localhost:8400/callback?code=c-2&state=state-abc", .failure(.malformedCallback("wrong host or port"))),
        ("https://127.0.0.1:8400/callback?code=c-2&state=state-abc", .failure(.malformedCallback("wrong scheme"))),
    ]

    @Test("Loopback callbacks must match scheme, host and port", arguments: loopbackCases)
    func loopback(_ callback: String, _ expected: Result<String, RegistrationFailure>) throws {
        let url = try #require(URL(string: callback))
        let redirect = try #require(URL(string: "http://127.0.0.1:8400/callback"))
        let result = Result { () throws(RegistrationFailure) -> String in
            try AuthorizationCallback.code(from: url, expectedRedirect: redirect, expectedState: Self.state,
                                           issuer: Self.issuer, issuerRequired: false)
        }
        #expect(result == expected)
    }

    @Test("The client checks the callback against the request and the advertised iss support")
    func throughClient() async throws {
        let client = OIDCFixtures.client(OIDCFixtures.provider())
        let request = try await client.makeAuthorizationRequest()
        let good = try #require(URL(string:
            "com.example.app:/callback?code=xyz&state=\(request.state)&iss=https%3A%2F%2Fidp.test"))
        #expect(try await client.authorizationCode(from: good, for: request) == "xyz")
        let noIss = try #require(URL(string: "com.example.app:/callback?code=xyz&state=\(request.state)"))
        await #expect(throws: RegistrationFailure.issuerMismatchInCallback) {
            try await client.authorizationCode(from: noIss, for: request)
        }
    }
}
