import Foundation
import RegState
import RegStateSimulator
import RegStateTesting
import Testing

/// A client's-eye view of the simulator's pushed authorization requests (RFC 9126).
extension SimulatorHarness {
    /// The authorization parameters `authorizationURL(_:)` would carry, as a push's form.
    func pushParameters(_ overrides: [String: String?] = [:]) -> [(String, String)] {
        query(of: authorizationURL(overrides)).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `POST /par` with `parameters`, and a DPoP proof by `proofKey` when given.
    func push(_ parameters: [(String, String)], proofKey: DPoPKey? = nil) async throws -> HTTPResponse {
        var request = HTTPRequest.form(url: providerURL("/par"), parameters: parameters)
        if let proofKey {
            request.headers["DPoP"] = try DPoPProofSigner(key: proofKey, crypto: SystemCrypto())
                .proof(method: "POST", url: request.url, now: clock.now())
        }
        return try await transport.send(request)
    }

    /// The browser URL for a pushed `requestURI`.
    func pushedURL(_ requestURI: String, clientID: String? = nil) -> URL {
        var components = URLComponents(url: providerURL("/authorize"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "client_id", value: clientID ?? configuration.clientID),
                                  URLQueryItem(name: "request_uri", value: requestURI)]
        return components?.url ?? providerURL("/authorize")
    }

    /// Pushes the default request and returns its `request_uri`.
    func pushedRequestURI(_ overrides: [String: String?] = [:], proofKey: DPoPKey? = nil) async throws -> String {
        let response = try await push(pushParameters(overrides), proofKey: proofKey)
        #expect(response.status == 201)
        return try #require(response.jsonBody?["request_uri"]?.stringValue)
    }
}

@Suite("Simulator: pushed authorization requests (RFC 9126)")
struct PushedAuthorizationTests {
    static func harness(_ mode: SimulatorPushedAuthorization = .offered, lifetime: TimeInterval = 60,
                        dpop: SimulatorDPoPMode = .off) throws -> SimulatorHarness {
        var configuration = SimulatorHarness.defaultConfiguration
        configuration.pushedAuthorization = mode
        configuration.pushedRequestLifetime = lifetime
        configuration.dpop = dpop
        return try SimulatorHarness(configuration: configuration)
    }

    @Test("Discovery lists the endpoint and whether it is required, per mode", arguments: SimulatorPushedAuthorization.allCases)
    func discovery(mode: SimulatorPushedAuthorization) async throws {
        let harness = try Self.harness(mode)
        let document = try await harness.transport.send(HTTPRequest(
            method: .get, url: harness.providerURL("/.well-known/openid-configuration"))).jsonBody
        let endpoint = document?["pushed_authorization_request_endpoint"]?.stringValue
        let required = document?["require_pushed_authorization_requests"]
        switch mode {
        case .off:
            #expect(endpoint == nil && required == nil)
            #expect(try await harness.push(harness.pushParameters()).status == 404)
        case .offered, .required:
            #expect(endpoint == "https://idp.regstate.sim/par")
            #expect(required == .bool(mode == .required))
        }
    }

    @Test("A push answers 201 with a request_uri, expires_in and no-store; the pushed URL signs in once")
    func pushThenAuthorizeOnce() async throws {
        let harness = try Self.harness(lifetime: 42)
        let response = try await harness.push(harness.pushParameters())
        #expect(response.status == 201)
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.jsonBody?["expires_in"] == .number(42))
        let requestURI = try #require(response.jsonBody?["request_uri"]?.stringValue)
        #expect(requestURI.hasPrefix("urn:ietf:params:oauth:request_uri:"))
        #expect(await harness.simulator.pendingPushedRequests == 1)
        let redirect = try await harness.simulator.authorize(harness.pushedURL(requestURI), as: "alice@example.com")
        let query = harness.query(of: redirect)
        #expect(query["state"] == "state-123")                    // the pushed state, not one from the URL
        let code = try #require(query["code"])
        #expect(try await harness.exchange(code: code).status == 200)
        #expect(await harness.simulator.pendingPushedRequests == 0)
        await #expect(throws: SimulatorError.invalidRequestURI) {
            _ = try await harness.simulator.authorize(harness.pushedURL(requestURI), as: "alice@example.com")
        }
    }

    /// A push the provider refuses: the form change, and the status and OAuth code it answers.
    struct Refusal: Sendable, CustomStringConvertible {
        var name: String
        var overrides: [String: String?]
        var status: Int
        var error: String
        var description: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "unknown client", overrides: ["client_id": "stranger"], status: 401, error: "invalid_client"),
        Refusal(name: "no client_id", overrides: ["client_id": nil], status: 400, error: "invalid_request"),
        Refusal(name: "unregistered redirect", overrides: ["redirect_uri": "https://attacker.example/cb"], status: 400,
                error: "invalid_request"),
        Refusal(name: "no PKCE", overrides: ["code_challenge": nil], status: 400, error: "invalid_request"),
        Refusal(name: "plain PKCE", overrides: ["code_challenge_method": "plain"], status: 400, error: "invalid_request"),
        Refusal(name: "request_uri pushed", overrides: ["request_uri": "urn:x"], status: 400, error: "invalid_request"),
        Refusal(name: "implicit flow", overrides: ["response_type": "token"], status: 400,
                error: "unsupported_response_type"),
    ]

    @Test("A push the provider's checks refuse is an RFC 6749 §5.2 error and leaves nothing to open", arguments: refusals)
    func refusedPush(refusal: Refusal) async throws {
        let harness = try Self.harness()
        let response = try await harness.push(harness.pushParameters(refusal.overrides))
        #expect(response.status == refusal.status)
        #expect(response.jsonBody?["error"]?.stringValue == refusal.error)
        #expect(await harness.simulator.pendingPushedRequests == 0)
    }

    @Test("The refusal knob answers every push with its code", arguments: ["invalid_request", "invalid_client", "unauthorized_client"])
    func refusalKnob(code: String) async throws {
        let harness = try Self.harness()
        await harness.simulator.setPushedAuthorizationRefusal(code)
        let response = try await harness.push(harness.pushParameters())
        #expect(response.status == (code == "invalid_client" ? 401 : 400))
        #expect(response.jsonBody?["error"]?.stringValue == code)
        await harness.simulator.setPushedAuthorizationRefusal(nil)
        #expect(try await harness.push(harness.pushParameters()).status == 201)
    }

    @Test("A request_uri past expires_in, or opened for another client, is refused without a redirect")
    func deadRequestURIs() async throws {
        let harness = try Self.harness(lifetime: 10)
        let expired = try await harness.pushedRequestURI()
        harness.clock.advance(by: 11)
        await #expect(throws: SimulatorError.invalidRequestURI) {
            _ = try await harness.simulator.authorize(harness.pushedURL(expired), as: "alice@example.com")
        }
        let stolen = try await harness.pushedRequestURI()
        await #expect(throws: SimulatorError.invalidRequestURI) {
            _ = try await harness.simulator.authorize(harness.pushedURL(stolen, clientID: "stranger"), as: "alice@example.com")
        }
        await #expect(throws: SimulatorError.invalidRequestURI) {
            _ = try await harness.simulator.authorize(harness.pushedURL("urn:ietf:params:oauth:request_uri:never"),
                                                      as: "alice@example.com")
        }
    }

    @Test("With PAR required a plain authorization URL is refused; with PAR offered it still works")
    func requiredRefusesPlain() async throws {
        let required = try Self.harness(.required)
        await #expect(throws: SimulatorError.pushedAuthorizationRequired) {
            _ = try await required.simulator.authorize(required.authorizationURL(), as: "alice@example.com")
        }
        let offered = try Self.harness(.offered)
        #expect(try await offered.authorizationCode().isEmpty == false)
    }

    @Test("The push's DPoP proof binds the code to its key; another key cannot redeem it; dpop_jkt must be the proof's key")
    func proofBindsCode() async throws {
        let harness = try Self.harness(dpop: .allowed)
        let crypto = SystemCrypto()
        let key = try DPoPKey.generate(crypto: crypto)
        let thief = try DPoPKey.generate(crypto: crypto)
        let mismatched = try await harness.push(harness.pushParameters(["dpop_jkt": thief.thumbprint]), proofKey: key)
        #expect(mismatched.status == 400)
        #expect(mismatched.jsonBody?["error"]?.stringValue == "invalid_dpop_proof")

        let requestURI = try await harness.pushedRequestURI(proofKey: key)
        let redirect = try await harness.simulator.authorize(harness.pushedURL(requestURI), as: "alice@example.com")
        let code = try #require(harness.query(of: redirect)["code"])
        func exchange(with proofKey: DPoPKey) async throws -> HTTPResponse {
            var request = HTTPRequest.form(url: harness.providerURL("/oauth/token"), parameters: [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SimulatorHarness.redirectURI),
                ("code_verifier", SimulatorHarness.verifier), ("client_id", harness.configuration.clientID),
            ])
            request.headers["DPoP"] = try DPoPProofSigner(key: proofKey, crypto: crypto)
                .proof(method: "POST", url: request.url, now: harness.clock.now())
            return try await harness.transport.send(request)
        }
        let stolen = try await exchange(with: thief)
        #expect(stolen.status == 400)
        #expect(stolen.jsonBody?["error"]?.stringValue == "invalid_grant")
    }

    @Test("DPoP required: a push without a proof is refused with invalid_dpop_proof")
    func requiredProof() async throws {
        let harness = try Self.harness(dpop: .required)
        let response = try await harness.push(harness.pushParameters())
        #expect(response.status == 400)
        #expect(response.jsonBody?["error"]?.stringValue == "invalid_dpop_proof")
        let key = try DPoPKey.generate(crypto: SystemCrypto())
        #expect(try await harness.push(harness.pushParameters(), proofKey: key).status == 201)
    }
}
