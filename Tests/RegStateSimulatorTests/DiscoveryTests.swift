import Foundation
import RegState
import RegStateOngoingAccess
import RegStateTestSupport
import RegStateSimulator
import Testing

@Suite("Simulator: discovery, JWKS and transport")
struct DiscoveryTests {
    @Test("discovery lists the issuer and every endpoint under it")
    func discoveryDocument() async throws {
        let harness = try SimulatorHarness()
        let response = try await harness.transport.send(
            HTTPRequest(method: .get, url: harness.providerURL("/.well-known/openid-configuration")))
        #expect(response.status == 200)
        let document = try #require(response.jsonBody)
        let issuer = "https://idp.regstate.sim"
        #expect(document["issuer"] == .string(issuer))
        #expect(document["authorization_endpoint"] == .string(issuer + "/authorize"))
        #expect(document["token_endpoint"] == .string(issuer + "/oauth/token"))
        #expect(document["userinfo_endpoint"] == .string(issuer + "/userinfo"))
        #expect(document["jwks_uri"] == .string(issuer + "/.well-known/jwks.json"))
        #expect(document["revocation_endpoint"] == .string(issuer + "/oauth/revoke"))
        #expect(document["end_session_endpoint"] == .string(issuer + "/v2/logout"))
        #expect(document["authorization_response_iss_parameter_supported"] == true)
        #expect(document["response_types_supported"] == ["code"])
        #expect(document["code_challenge_methods_supported"] == ["S256"])
        #expect(document["id_token_signing_alg_values_supported"] == ["RS256"])
        #expect(document["token_endpoint_auth_methods_supported"] == ["none"])
        #expect(document["grant_types_supported"] == [
            "authorization_code", "refresh_token", "http://auth0.com/oauth/grant-type/passwordless/otp",
        ])
        #expect(document["scopes_supported"]?.arrayValue?.contains("offline_access") == true)
    }

    @Test("an issued ID token verifies with the JWKS key and carries the OIDC claims")
    func idTokenVerifiesAgainstJWKS() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn(as: "alice@example.com")
        let jwksResponse = try await harness.transport.send(
            HTTPRequest(method: .get, url: harness.providerURL("/.well-known/jwks.json")))
        let keySet = try JSONWebKeySet.parse(jwksResponse.body)
        let jwt = try JSONWebToken(compact: try #require(tokens.idToken))
        let key = try #require(keySet.key(withID: jwt.keyID))
        #expect(jwt.keyID == (await harness.simulator.signingKeyID))
        #expect(jwt.algorithm == "RS256")
        let publicKey = try key.rsaPublicKey()
        #expect(publicKey.bitCount == 2048)
        #expect(try jwt.verifySignature(with: publicKey, crypto: SystemCrypto()))

        let now = harness.clock.now().timeIntervalSince1970
        #expect(jwt.issuer == "https://idp.regstate.sim")
        #expect(jwt.audience == ["regstate-cli"])
        #expect(jwt.claims["azp"] == nil)  // one audience: no azp, as real providers issue it
        #expect(jwt.nonce == "nonce-456")
        #expect(jwt.subject == (await harness.simulator.user(email: "alice@example.com"))?.subject)
        #expect(jwt.claims["email"] == "alice@example.com")
        #expect(jwt.claims["email_verified"] == true)
        #expect(jwt.claims["name"] == "Alice Example")
        #expect(jwt.claims["iat"]?.numberValue == now)
        #expect(jwt.claims["auth_time"]?.numberValue == now)
        #expect(jwt.claims["exp"]?.numberValue == now + 3600)

        // A tampered payload no longer verifies: the check above is not vacuous.
        let parts = try #require(tokens.idToken).split(separator: ".").map(String.init)
        let forged = try JSONWebToken(compact: [parts[0], Base64URL.encode(Data(#"{"sub":"mallory"}"#.utf8)),
                                                parts[2]].joined(separator: "."))
        #expect(try forged.verifySignature(with: publicKey, crypto: SystemCrypto()) == false)
    }

    @Test("offline: every request throws TransportError.offline until the network is back")
    func offline() async throws {
        let harness = try SimulatorHarness()
        await harness.simulator.setOffline(true)
        let request = HTTPRequest(method: .get, url: harness.providerURL("/.well-known/jwks.json"))
        await #expect(throws: TransportError.offline) { try await harness.transport.send(request) }
        await #expect(throws: TransportError.offline) {
            try await harness.simulator.authorize(harness.authorizationURL(), as: "alice@example.com")
        }
        #expect(await harness.simulator.requestLog.isEmpty)
        await harness.simulator.setOffline(false)
        #expect(try await harness.transport.send(request).status == 200)
    }

    @Test("an unknown host fails to connect; an unknown path is a 404")
    func routing() async throws {
        let harness = try SimulatorHarness()
        let elsewhere = HTTPRequest(method: .get, url: try #require(URL(string: "https://example.org/")))
        await #expect(throws: TransportError.connectionFailed("unknown host example.org")) {
            try await harness.transport.send(elsewhere)
        }
        let missing = try await harness.transport.send(HTTPRequest(method: .get, url: harness.providerURL("/nope")))
        #expect(missing.status == 404)
        let wrongMethod = try await harness.transport.send(
            HTTPRequest(method: .get, url: harness.providerURL("/oauth/token")))
        #expect(wrongMethod.status == 405)
    }

    @Test("the provider being down answers 500 while the backend stays up")
    func providerDown() async throws {
        let harness = try SimulatorHarness()
        await harness.simulator.setProviderDown(true)
        let discovery = try await harness.transport.send(
            HTTPRequest(method: .get, url: harness.providerURL("/.well-known/openid-configuration")))
        #expect(discovery.status == 500)
        #expect(discovery.errorCode == "server_error")
        let backend = try await harness.backend(.get, "/v1/registration", token: "unknown")
        #expect(backend.status == 401)
    }

    @Test("the request log keeps method and path only, never a token or code")
    func requestLogHasNoSecrets() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn()
        _ = try await harness.userinfo(tokens.accessToken)
        let log = await harness.simulator.requestLog
        #expect(log == ["GET /authorize", "POST /oauth/token", "GET /userinfo"])
        for entry in log {
            #expect(!entry.contains(tokens.accessToken))
        }
    }
}
