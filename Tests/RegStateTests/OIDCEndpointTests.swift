import Foundation
import Testing
import RegStateTesting
@testable import RegState
import RegStateSimulator

@Suite("Userinfo, revocation and passwordless requests")
struct OIDCEndpointTests {
    @Test("Userinfo sends the bearer token and returns the claims; 401 is unauthorized")
    func userInfo() async throws {
        let transport = OIDCFixtures.provider { request in
            guard request.url.path == "/userinfo" else { return nil }
            return request.header("authorization") == "Bearer good"
                ? .json(200, ["sub": "u-1", "email": "a@example.com"]) : .json(401, ["error": "invalid_token"])
        }
        let client = OIDCFixtures.client(transport)
        let claims = try await client.userInfo(accessToken: "good", subject: "u-1")
        #expect(claims["sub"] == "u-1")
        await #expect(throws: UserInfoError.unauthorized) { try await client.userInfo(accessToken: "bad", subject: "u-1") }
    }

    static let revocationCases: [(HTTPResponse, OIDCError?)] = [
        (HTTPResponse(status: 200), nil),
        (HTTPResponse(status: 503), .server(status: 503)),
        (.json(400, ["error": "unsupported_token_type"]),
         .oauth(error: "unsupported_token_type", description: nil, status: 400)),
    ]

    @Test("Revocation posts token, hint and client_id; 200 succeeds", arguments: revocationCases)
    func revoke(_ response: HTTPResponse, _ expected: OIDCError?) async throws {
        let transport = OIDCFixtures.provider { $0.url.path == "/oauth/revoke" ? response : nil }
        let client = OIDCFixtures.client(transport)
        let outcome: OIDCError?
        do throws(OIDCError) {
            try await client.revoke(token: "rt", hint: .refreshToken)
            outcome = nil
        } catch {
            outcome = error
        }
        #expect(outcome == expected)
        let post = try #require(transport.requests(to: "/oauth/revoke").first)
        #expect(post.formParameters == ["token": "rt", "token_type_hint": "refresh_token", "client_id": "client-1"])
    }

    @Test("Without a revocation endpoint in either document, revocation is unsupported and the token is never sent")
    func revokeUnsupported() async throws {
        let transport = OIDCFixtures.provider(discovery: OIDCFixtures.discovery(revocation: false))
        let client = OIDCFixtures.client(transport)
        await #expect(throws: OIDCError.unsupported("the provider has no revocation endpoint")) {
            try await client.revoke(token: "rt")
        }
        // Discovery, then the RFC 8414 metadata look-up: GETs only, none carrying the token.
        #expect(transport.requests.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(transport.requests.map(\.url.path) == ["/.well-known/openid-configuration",
                                                        "/.well-known/oauth-authorization-server"])
    }

    @Test("Passwordless start posts Auth0's JSON body")
    func passwordlessStart() async throws {
        let transport = OIDCFixtures.provider { $0.url.path == "/passwordless/start" ? .json(200, ["_id": "1"]) : nil }
        try await PasswordlessGrant(provider: OIDCFixtures.client(transport)).start(email: " alice@example.com ")
        let post = try #require(transport.requests(to: "/passwordless/start").first)
        #expect(post.method == .post)
        #expect(post.header("content-type") == "application/json")
        #expect(try JSONValue.parse(try #require(post.body)) == [
            "client_id": "client-1", "connection": "email", "email": "alice@example.com", "send": "code",
        ])
    }

    @Test("A malformed email is refused before any request", arguments: ["", "alice", "alice@", "@example.com",
                                                                          "a b@example.com", "alice@example", "a@b@c.com"])
    func invalidEmail(_ email: String) async throws {
        let transport = OIDCFixtures.provider()
        let client = OIDCFixtures.client(transport)
        await #expect(throws: RegistrationFailure.invalidEmail) { try await PasswordlessGrant(provider: client).start(email: email) }
        await #expect(throws: RegistrationFailure.invalidEmail) {
            try await PasswordlessGrant(provider: client).verify(email: email, code: "1")
        }
        #expect(transport.requests.isEmpty)
    }

    static let otpCases: [(String, RegistrationFailure)] = [
        ("Wrong email or verification code.", .wrongCode),
        ("The verification code has expired.", .codeExpired),
        ("The verification code has already been used.", .codeReused),
        ("You've reached the maximum number of attempts.", .tooManyAttempts),
        ("The verification code was superseded by a newer one.", .codeSuperseded),
        ("Wrong email or verification code.", .wrongCode),
    ]

    @Test("invalid_grant descriptions of the OTP grant map to code errors", arguments: otpCases)
    func otpMapping(_ description: String, _ expected: RegistrationFailure) async throws {
        let transport = OIDCFixtures.provider { request in
            request.url.path == "/oauth/token"
                ? .json(403, ["error": "invalid_grant", "error_description": .string(description)]) : nil
        }
        await #expect(throws: expected) {
            try await PasswordlessGrant(provider: OIDCFixtures.client(transport)).verify(email: "alice@example.com", code: "123456")
        }
        let post = try #require(transport.requests(to: "/oauth/token").first)
        #expect(post.formParameters == [
            "grant_type": "http://auth0.com/oauth/grant-type/passwordless/otp", "client_id": "client-1",
            "username": "alice@example.com", "otp": "123456", "realm": "email",
            "scope": "openid profile email offline_access",
        ])
    }

    @Test("Other OTP grant errors pass through unchanged")
    func otpOtherErrors() async throws {
        let transport = OIDCFixtures.provider { $0.url.path == "/oauth/token" ? HTTPResponse(status: 502) : nil }
        await #expect(throws: RegistrationFailure(OIDCError.server(status: 502))) {
            try await PasswordlessGrant(provider: OIDCFixtures.client(transport)).verify(email: "alice@example.com", code: "123456")
        }
    }
}
