import Foundation
import RegState
import RegStateSimulator
import Testing

/// Where interop with django-oauth-toolkit showed the simulator differing from a real provider, it now behaves like one.
@Suite("Provider realism")
struct ProviderRealismTests {
    @Test("ID tokens have one audience and no azp, and at_hash binds them to the access token issued with them")
    func idTokenShape() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn()
        let claims = try JSONWebToken(compact: #require(tokens.idToken)).claims
        #expect(claims["azp"] == nil)
        #expect(claims["aud"] == JSONValue.string(harness.configuration.clientID))
        let digest = SystemCrypto().sha256(Data(tokens.accessToken.utf8))
        #expect(claims["at_hash"] == JSONValue.string(Base64URL.encode(Data(digest.prefix(16)))))
    }

    @Test("with sendsIssuerInCallback off, redirects carry no iss and discovery does not advertise it")
    func noIssuerInCallback() async throws {
        var configuration = SimulatorHarness.defaultConfiguration
        configuration.sendsIssuerInCallback = false
        let harness = try SimulatorHarness(configuration: configuration)
        let redirect = try await harness.simulator.authorize(harness.authorizationURL(), as: "alice@example.com")
        #expect(harness.query(of: redirect)["iss"] == nil)
        #expect(harness.query(of: redirect)["code"] != nil)
        let discovery = try await harness.transport.send(HTTPRequest(
            method: .get, url: harness.providerURL("/.well-known/openid-configuration")))
        #expect(discovery.jsonBody?["authorization_response_iss_parameter_supported"] == false)
    }
}
