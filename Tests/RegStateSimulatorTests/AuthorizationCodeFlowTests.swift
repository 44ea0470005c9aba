import Foundation
import RegState
import RegStateSimulator
import Testing

@Suite("Simulator: authorization code flow with PKCE")
struct AuthorizationCodeFlowTests {
    @Test("authorize redirects with code, state and iss; the code exchanges for tokens")
    func fullFlow() async throws {
        let harness = try SimulatorHarness()
        let redirect = try await harness.simulator.authorize(harness.authorizationURL(), as: "alice@example.com")
        #expect(redirect.absoluteString.hasPrefix("com.example.app:/callback?"))
        let query = harness.query(of: redirect)
        #expect(query["state"] == "state-123")
        #expect(query["iss"] == "https://idp.regstate.sim")
        let code = try #require(query["code"])
        let tokens = try harness.tokens(from: try await harness.exchange(code: code))
        #expect(tokens.refreshToken != nil)
        #expect(tokens.idToken != nil)
        #expect(tokens.expiresIn == 3600)
        #expect(tokens.scope == "openid profile email offline_access")
        let userinfo = try await harness.userinfo(tokens.accessToken)
        #expect(userinfo.status == 200)
        #expect(userinfo.jsonBody?["email"] == "alice@example.com")
        #expect(userinfo.jsonBody?["name"] == "Alice Example")
    }

    @Test("a new address signs in with a stable subject")
    func newUser() async throws {
        let harness = try SimulatorHarness()
        _ = try await harness.signIn(as: "Dora@Example.com")
        let user = try #require(await harness.simulator.user(email: "dora@example.com"))
        let other = try SimulatorHarness()
        _ = try await other.signIn(as: "dora@example.com")
        #expect(await other.simulator.user(email: "dora@example.com")?.subject == user.subject)
    }

    @Test("without offline_access there is no refresh token")
    func noOfflineAccess() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn(["scope": "openid email"])
        #expect(tokens.refreshToken == nil)
        #expect(tokens.idToken != nil)
    }

    @Test("a loopback redirect on any port is accepted")
    func loopbackRedirect() async throws {
        let harness = try SimulatorHarness()
        let uri = "http://127.0.0.1:53117/callback"
        let code = try await harness.authorizationCode(["redirect_uri": uri])
        #expect(try await harness.exchange(code: code, redirectURI: uri).status == 200)
    }

    @Test("a wrong code_verifier is invalid_grant")
    func wrongVerifier() async throws {
        let harness = try SimulatorHarness()
        let code = try await harness.authorizationCode()
        let response = try await harness.exchange(code: code, verifier: String(repeating: "x", count: 43))
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_grant")
    }

    @Test("a redirect_uri that differs from the authorization request is invalid_grant")
    func wrongRedirectURI() async throws {
        let harness = try SimulatorHarness()
        let code = try await harness.authorizationCode()
        let response = try await harness.exchange(code: code, redirectURI: "http://127.0.0.1:9/callback")
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_grant")
    }

    @Test("a replayed code is invalid_grant and revokes the tokens it issued")
    func replayedCode() async throws {
        let harness = try SimulatorHarness()
        let code = try await harness.authorizationCode()
        let tokens = try harness.tokens(from: try await harness.exchange(code: code))
        let replay = try await harness.exchange(code: code)
        #expect(replay.status == 400)
        #expect(replay.errorCode == "invalid_grant")
        #expect(try await harness.userinfo(tokens.accessToken).status == 401)
        #expect(try await harness.refresh(try #require(tokens.refreshToken)).errorCode == "invalid_grant")
    }

    @Test("an unknown client or unregistered redirect URI throws instead of redirecting")
    func requestsThatCannotRedirect() async throws {
        let harness = try SimulatorHarness()
        await #expect(throws: SimulatorError.unknownClient("someone-else")) {
            try await harness.simulator.authorize(harness.authorizationURL(["client_id": "someone-else"]), as: "a@b.co")
        }
        await #expect(throws: SimulatorError.unregisteredRedirectURI("https://evil.example/cb")) {
            try await harness.simulator.authorize(
                harness.authorizationURL(["redirect_uri": "https://evil.example/cb"]), as: "a@b.co")
        }
        await #expect(throws: SimulatorError.notAuthorizationEndpoint) {
            try await harness.simulator.authorize(harness.providerURL("/oauth/token"), as: "a@b.co")
        }
        await #expect(throws: SimulatorError.invalidEmail("not-an-email")) {
            try await harness.simulator.authorize(harness.authorizationURL(), as: "not-an-email")
        }
    }

    @Test("invalid requests redirect back with their error", arguments: [
        (["code_challenge_method": "plain"], "invalid_request"),
        (["code_challenge": nil], "invalid_request"),
        (["response_type": "token"], "unsupported_response_type"),
        (["scope": "email"], "invalid_scope"),
    ] as [([String: String?], String)])
    func errorRedirects(overrides: [String: String?], error: String) async throws {
        let harness = try SimulatorHarness()
        let redirect = try await harness.simulator.authorize(harness.authorizationURL(overrides), as: "a@b.co")
        let query = harness.query(of: redirect)
        #expect(query["error"] == error)
        #expect(query["code"] == nil)
        #expect(query["state"] == "state-123")
    }

    @Test("deny redirects with access_denied and the state")
    func deny() async throws {
        let harness = try SimulatorHarness()
        let redirect = try await harness.simulator.deny(harness.authorizationURL())
        let query = harness.query(of: redirect)
        #expect(query["error"] == "access_denied")
        #expect(query["error_description"] != nil)
        #expect(query["state"] == "state-123")
        #expect(query["iss"] == "https://idp.regstate.sim")
    }

    @Test("token endpoint errors use the RFC 6749 §5.2 shape")
    func tokenEndpointErrors() async throws {
        let harness = try SimulatorHarness()
        let unsupported = try await harness.tokenRequest([("grant_type", "password")])
        #expect(unsupported.status == 400)
        #expect(unsupported.errorCode == "unsupported_grant_type")
        let badClient = try await harness.transport.send(.form(
            url: harness.providerURL("/oauth/token"),
            parameters: [("grant_type", "refresh_token"), ("client_id", "other"), ("refresh_token", "x")]))
        #expect(badClient.status == 401)
        #expect(badClient.errorCode == "invalid_client")
        #expect(await harness.simulator.tokenRequestCount == 2)
    }
}
