import Foundation
import RegState
import RegStateSimulator
import Testing

@Suite("Simulator: smaller endpoints and knobs")
struct KnobsAndEndpointsTests {
    @Test("userinfo answers POST too, and a missing bearer token gets a bare challenge")
    func userinfoVariants() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn(as: "bob@example.com")
        let post = try await harness.transport.send(HTTPRequest(
            method: .post, url: harness.providerURL("/userinfo"),
            headers: ["Authorization": "Bearer \(tokens.accessToken)"]))
        #expect(post.jsonBody?["name"] == "Bob Example")
        let bare = try await harness.transport.send(HTTPRequest(method: .get, url: harness.providerURL("/userinfo")))
        #expect(bare.status == 401)
        #expect(bare.header("WWW-Authenticate") == "Bearer")
    }

    @Test("revocation needs the registered client")
    func revocationClient() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn()
        let response = try await harness.transport.send(.form(
            url: harness.providerURL("/oauth/revoke"),
            parameters: [("token", try #require(tokens.refreshToken)), ("client_id", "other")]))
        #expect(response.status == 401)
        #expect(response.errorCode == "invalid_client")
        #expect(try await harness.refresh(try #require(tokens.refreshToken)).status == 200)
    }

    @Test("end session redirects to a registered post-logout URI with the state, else answers 200")
    func endSession() async throws {
        let harness = try SimulatorHarness()
        var components = URLComponents(url: harness.providerURL("/v2/logout"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "post_logout_redirect_uri", value: "com.example.app:/callback"),
            URLQueryItem(name: "state", value: "bye"),
        ]
        let url = try #require(components?.url)
        let redirect = try await harness.transport.send(HTTPRequest(method: .get, url: url))
        #expect(redirect.status == 302)
        #expect(redirect.header("Location") == "com.example.app:/callback?state=bye")
        components?.queryItems = [URLQueryItem(name: "post_logout_redirect_uri", value: "https://evil.example/")]
        let plain = try await harness.transport.send(HTTPRequest(method: .get, url: try #require(components?.url)))
        #expect(plain.status == 200)
    }

    @Test("reconfigure adds scripted users and changes knobs")
    func reconfigure() async throws {
        let harness = try SimulatorHarness()
        await harness.simulator.reconfigure { configuration in
            configuration.users.append(SimulatorUser(email: "Zed@Example.com", name: "Zed", subject: "auth0|zed"))
            configuration.requiresOfflineAccessForRefreshToken = false
        }
        let tokens = try await harness.signIn(as: "zed@example.com", ["scope": "openid"])
        #expect(tokens.refreshToken != nil)
        #expect(try JSONWebToken(compact: try #require(tokens.idToken)).subject == "auth0|zed")
    }

    @Test("a latency knob still answers (timing is not asserted)")
    func latency() async throws {
        let harness = try SimulatorHarness()
        await harness.simulator.setLatency(0.001)
        let response = try await harness.transport.send(
            HTTPRequest(method: .get, url: harness.providerURL("/.well-known/jwks.json")))
        #expect(response.status == 200)
    }

    @Test("an issuer with a path serves every endpoint under that path")
    func issuerWithPath() async throws {
        var configuration = SimulatorHarness.defaultConfiguration
        configuration.issuer = SimulatorConfiguration.literalURL("https://login.example.test/tenant-a/")
        let harness = try SimulatorHarness(configuration: configuration)
        let discovery = try await harness.transport.send(HTTPRequest(
            method: .get, url: SimulatorConfiguration.literalURL(
                "https://login.example.test/tenant-a/.well-known/openid-configuration")))
        #expect(discovery.jsonBody?["issuer"] == "https://login.example.test/tenant-a")
        #expect(discovery.jsonBody?["token_endpoint"] == "https://login.example.test/tenant-a/oauth/token")
        let tokens = try await harness.signIn()
        #expect(try JSONWebToken(compact: try #require(tokens.idToken)).issuer == "https://login.example.test/tenant-a")
    }

    @Test("resetCounters zeroes the counters and the log")
    func resetCounters() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn()
        _ = try await harness.refresh(try #require(tokens.refreshToken))
        #expect(await harness.simulator.tokenRequestCount == 2)
        await harness.simulator.resetCounters()
        #expect(await harness.simulator.tokenRequestCount == 0)
        #expect(await harness.simulator.refreshGrantCount == 0)
        #expect(await harness.simulator.requestLog.isEmpty)
    }
}
