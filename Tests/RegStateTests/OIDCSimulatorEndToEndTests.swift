import Foundation
import Testing
import RegState
import RegStateLoopback
import RegStateTesting
import RegStateSimulator

/// The OIDC client against the in-process simulator: real discovery, PKCE, token, JWKS and signature checks.
@Suite("OIDC client against the simulator")
struct OIDCSimulatorEndToEndTests {
    let clock = ManualClock()
    let simulator: Simulator
    let client: OIDCClient

    init() throws {
        simulator = try Simulator(configuration: SimulatorConfiguration(signingKey: EngineHarness.sharedSigningKey), clock: clock)
        client = OIDCClient(configuration: Self.configuration(), transport: simulator.transport, clock: clock)
    }

    static func configuration(redirectURI: String = "com.example.app:/callback") -> OIDCConfiguration {
        OIDCConfiguration(issuer: URL(string: "https://idp.regstate.sim")!, clientID: "regstate-cli",
                          redirectURI: URL(string: redirectURI)!)
    }

    /// Runs the social flow for `email` and returns the request, the tokens and the verified ID token.
    func signIn(_ email: String = "alice@example.com") async throws
        -> (AuthorizationRequest, TokenResponse, VerifiedIDToken)
    {
        let request = try await client.makeAuthorizationRequest()
        let callback = try await simulator.authorize(request.url, as: email)
        let code = try await client.authorizationCode(from: callback, for: request)
        let tokens = try await client.exchangeCode(code, for: request)
        let idToken = try #require(tokens.idToken)
        let verified = try await client.validateIDToken(idToken, expectedNonce: request.nonce)
        return (request, tokens, verified)
    }

    @Test("Social login: discovery, authorization URL, callback, exchange, ID token gives the profile")
    func socialLogin() async throws {
        let (_, tokens, verified) = try await signIn()
        let subject = try #require(await simulator.user(email: "alice@example.com")?.subject)
        #expect(verified.profile == Profile(subject: subject, issuer: "https://idp.regstate.sim",
                                            email: "alice@example.com", emailVerified: true, name: "Alice Example"))
        #expect(tokens.refreshToken != nil)
        #expect(tokens.expiresIn == 3600)
        #expect(try await client.metadata().requiresCallbackIssuer)
    }

    @Test("The ID token fails validation with another request's nonce")
    func nonceOfAnotherRequest() async throws {
        let request = try await client.makeAuthorizationRequest()
        let callback = try await simulator.authorize(request.url, as: "bob@example.com")
        let tokens = try await client.exchangeCode(try await client.authorizationCode(from: callback, for: request),
                                                   for: request)
        await #expect(throws: OIDCError.invalidIDToken(.nonceMismatch)) {
            try await client.validateIDToken(try #require(tokens.idToken), expectedNonce: "another-nonce")
        }
    }

    @Test("A callback for another request is a state mismatch; a denial is an authorization error")
    func callbackErrors() async throws {
        let first = try await client.makeAuthorizationRequest()
        let second = try await client.makeAuthorizationRequest()
        let callback = try await simulator.authorize(first.url, as: "alice@example.com")
        await #expect(throws: RegistrationFailure.stateMismatch) { try await client.authorizationCode(from: callback, for: second) }
        let denied = try await simulator.deny(second.url)
        await #expect(throws: RegistrationFailure.authorizationDenied(error: "access_denied",
                                                                     description: "The user denied the request.")) {
            try await client.authorizationCode(from: denied, for: second)
        }
    }

    @Test("A code is redeemed once; the second exchange is an explicit refusal")
    func codeReplay() async throws {
        let request = try await client.makeAuthorizationRequest()
        let code = try await client.authorizationCode(
            from: try await simulator.authorize(request.url, as: "alice@example.com"), for: request)
        _ = try await client.exchangeCode(code, for: request)
        do throws(OIDCError) {
            _ = try await client.exchangeCode(code, for: request)
            Issue.record("a replayed code was accepted")
        } catch {
            #expect(error.isRefusal)
        }
    }

    @Test("Refresh rotates the refresh token; userinfo's sub equals the ID token's")
    func refreshAndUserInfo() async throws {
        let (_, tokens, verified) = try await signIn()
        let refreshToken = try #require(tokens.refreshToken)
        clock.advance(by: 600)
        let renewed = try await client.refresh(refreshToken: refreshToken)
        #expect(renewed.accessToken != tokens.accessToken)
        #expect(renewed.refreshToken != nil && renewed.refreshToken != refreshToken)
        let claims = try await client.userInfo(accessToken: renewed.accessToken, subject: verified.profile.subject)
        #expect(claims["sub"]?.stringValue == verified.profile.subject)
        #expect(claims["email"]?.stringValue == "alice@example.com")
    }

    @Test("After revoking the refresh token, refresh is an explicit refusal")
    func revokeThenRefresh() async throws {
        let (_, tokens, _) = try await signIn()
        let refreshToken = try #require(tokens.refreshToken)
        try await client.revoke(token: refreshToken, hint: .refreshToken)
        do throws(OIDCError) {
            _ = try await client.refresh(refreshToken: refreshToken)
            Issue.record("a revoked refresh token was accepted")
        } catch {
            #expect(error.isRefusal)
            #expect(!error.isTransient)
        }
    }

    @Test("Offline and provider outages are transient; a refusing provider is a refusal")
    func failureClasses() async throws {
        let (_, tokens, _) = try await signIn()
        let refreshToken = try #require(tokens.refreshToken)
        await simulator.setOffline(true)
        await #expect(throws: OIDCError.transport(.offline)) { try await client.refresh(refreshToken: refreshToken) }
        await simulator.setOffline(false)
        await simulator.setProviderDown(true)
        await #expect(throws: OIDCError.server(status: 500)) { try await client.refresh(refreshToken: refreshToken) }
        await simulator.setProviderDown(false)
        await simulator.setRefusesRefresh(true)
        do throws(OIDCError) {
            _ = try await client.refresh(refreshToken: refreshToken)
            Issue.record("a refusing provider renewed")
        } catch {
            #expect(error.isRefusal)
        }
    }

    @Test("A revoked access token is unauthorized at userinfo")
    func revokedAccessToken() async throws {
        let (_, tokens, verified) = try await signIn()
        try await client.revoke(token: tokens.accessToken, hint: .accessToken)
        await #expect(throws: UserInfoError.unauthorized) {
            try await client.userInfo(accessToken: tokens.accessToken, subject: verified.profile.subject)
        }
    }

    @Test("Loopback redirect: the listener catches the simulator's redirect")
    func loopback() async throws {
        let listener = try LoopbackRedirectListener()
        let loopbackClient = OIDCClient(
            configuration: Self.configuration(redirectURI: listener.redirectURI.absoluteString),
            transport: simulator.transport, clock: clock)
        let request = try await loopbackClient.makeAuthorizationRequest()
        let redirect = try await simulator.authorize(request.url, as: "carol@example.com")
        async let caught = listener.waitForRedirect(timeout: 120)  // a liveness bound: TSan on 2 busy cores took > 30 s
        // The browser's GET waits as long as the listener may: the listener serves from a thread it starts once its
        // wait begins on the concurrency pool, and under a sanitizer on two busy cores that took longer than the
        // transport's default 30 s (CI); the connection waits in the kernel's backlog meanwhile.
        let page = try await URLSessionTransport().send(HTTPRequest(method: .get, url: redirect, timeout: 120))
        #expect(page.status == 200)
        let code = try await loopbackClient.authorizationCode(from: try await caught, for: request)
        let tokens = try await loopbackClient.exchangeCode(code, for: request)
        let verified = try await loopbackClient.validateIDToken(try #require(tokens.idToken),
                                                                expectedNonce: request.nonce)
        #expect(verified.profile.email == "carol@example.com")
    }
}
