import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

@Suite("Authorization request")
struct OIDCAuthorizationRequestTests {
    @Test("The authorization URL carries every parameter, and PKCE, state and nonce are fresh")
    func everyParameter() async throws {
        let clock = ManualClock()
        let client = OIDCFixtures.client(
            OIDCFixtures.provider(), configuration: OIDCFixtures.configuration(extra: ["audience": "https://api.test"]),
            clock: clock)
        let request = try await client.makeAuthorizationRequest()
        let query = FormEncoding.queryItems(of: request.url)
        #expect(request.url.absoluteString.hasPrefix("https://idp.test/authorize?"))
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "client-1")
        #expect(query["redirect_uri"] == "com.example.app:/callback")
        #expect(query["scope"] == "openid profile email offline_access")
        #expect(query["state"] == request.state)
        #expect(query["nonce"] == request.nonce)
        #expect(query["code_challenge"] == PKCE.challenge(for: request.codeVerifier, crypto: SystemCrypto()))
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["audience"] == "https://api.test")
        #expect(request.codeVerifier.count == 43)
        #expect(request.state.count == 43 && request.nonce.count == 43)
        #expect(Set([request.state, request.nonce, request.codeVerifier]).count == 3)
        #expect(request.redirectURI == OIDCFixtures.redirectURI)
        #expect(request.issuedAt == clock.now())

        let second = try await client.makeAuthorizationRequest()
        #expect(second.state != request.state && second.nonce != request.nonce)
        #expect(second.codeVerifier != request.codeVerifier)
    }

    @Test("A query already in the authorization endpoint is preserved")
    func existingQuery() async throws {
        let transport = OIDCFixtures.provider(
            discovery: OIDCFixtures.discovery(authorizationEndpoint: "https://idp.test/authorize?tenant=acme"))
        let request = try await OIDCFixtures.client(transport).makeAuthorizationRequest()
        let query = FormEncoding.queryItems(of: request.url)
        #expect(query["tenant"] == "acme")
        #expect(query["response_type"] == "code")
        #expect(request.url.path == "/authorize")
    }

    @Test("Additional parameters cannot override the protocol's own")
    func reservedParameters() async throws {
        let client = OIDCFixtures.client(
            OIDCFixtures.provider(), configuration: OIDCFixtures.configuration(extra: ["state": "fixed", "prompt": "login"]))
        let request = try await client.makeAuthorizationRequest()
        let query = FormEncoding.queryItems(of: request.url)
        #expect(query["state"] == request.state)
        #expect(query["prompt"] == "login")
    }

    @Test("The description shows no state, nonce or verifier")
    func redactedDescription() async throws {
        let request = try await OIDCFixtures.client(OIDCFixtures.provider()).makeAuthorizationRequest()
        let texts = [request.description, String(reflecting: request), "\(request)"]
        for text in texts {
            #expect(!text.contains(request.state))
            #expect(!text.contains(request.nonce))
            #expect(!text.contains(request.codeVerifier))
        }
    }
}
