import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateSimulator

/// Issue 17's algorithms end to end: the simulator signs ID tokens RS256, PS256 or ES256 and says so in discovery;
/// the OIDC client registers (authorize, exchange, validate), refreshes and validates the refreshed ID token
/// against the original (OIDC Core 12.2).
@Suite("OIDC client: ID token algorithms against the simulator")
struct OIDCAlgorithmsSimulatorTests {
    let clock = ManualClock()

    func world(
        _ algorithm: SignatureAlgorithm, advertised: [String]? = nil
    ) throws -> (Simulator, OIDCClient) {
        var configuration = SimulatorConfiguration(signingKey: EngineHarness.sharedSigningKey)
        configuration.idTokenSigningAlgorithm = algorithm
        configuration.advertisedIDTokenSigningAlgorithms = advertised
        let simulator = try Simulator(configuration: configuration, clock: clock)
        let client = OIDCClient(configuration: OIDCSimulatorEndToEndTests.configuration(),
                                transport: simulator.transport, clock: clock)
        return (simulator, client)
    }

    /// Authorize as alice, exchange the code; the raw tokens and the request.
    func register(_ simulator: Simulator, _ client: OIDCClient) async throws -> (AuthorizationRequest, TokenResponse) {
        let request = try await client.makeAuthorizationRequest()
        let callback = try await simulator.authorize(request.url, as: "alice@example.com")
        let tokens = try await client.exchangeCode(try await client.authorizationCode(from: callback, for: request),
                                                   for: request)
        return (request, tokens)
    }

    @Test("registration and refresh with ID tokens signed by each algorithm discovery lists",
          arguments: [SignatureAlgorithm.rs256, .ps256, .es256])
    func registerAndRefresh(algorithm: SignatureAlgorithm) async throws {
        let (simulator, client) = try world(algorithm)
        #expect(try await client.metadata().idTokenSigningAlgValuesSupported == [algorithm.rawValue])
        let (request, tokens) = try await register(simulator, client)
        let idToken = try #require(tokens.idToken)
        let verified = try await client.validateIDToken(idToken, expectedNonce: request.nonce)
        #expect(verified.token.algorithm == algorithm.rawValue)
        #expect(verified.profile.email == "alice@example.com")

        clock.advance(by: 600)
        let renewed = try await client.refresh(refreshToken: try #require(tokens.refreshToken))
        let refreshed = try await client.validateRefreshedIDToken(try #require(renewed.idToken),
                                                                  originalIDToken: idToken)
        #expect(refreshed.token.algorithm == algorithm.rawValue)
        #expect(refreshed.profile.subject == verified.profile.subject)
        // The published key set, read strictly, has exactly one key that fits the algorithm.
        let jwks = try await simulator.transport.send(
            HTTPRequest(method: .get, url: URL(string: "https://idp.regstate.sim/.well-known/jwks.json")!))
        let keys = try JSONWebKeySet.parse(jwks.body)
        #expect(keys.keys.filter { $0.fits(algorithm) }.count == 1)
    }

    @Test("a discovery document that lists none is a typed error at registration")
    func discoveryListsNone() async throws {
        let (simulator, client) = try world(.rs256, advertised: ["RS256", "none"])
        let (request, tokens) = try await register(simulator, client)
        await #expect(throws: OIDCError.invalidIDToken(.unsignedTokensAdvertised)) {
            try await client.validateIDToken(try #require(tokens.idToken), expectedNonce: request.nonce)
        }
    }

    @Test("an algorithm discovery does not list is refused, even when the signature is good")
    func algorithmNotListed() async throws {
        let (simulator, client) = try world(.ps256, advertised: ["RS256"])
        let (request, tokens) = try await register(simulator, client)
        await #expect(throws: OIDCError.invalidIDToken(.unsupportedAlgorithm("PS256"))) {
            try await client.validateIDToken(try #require(tokens.idToken), expectedNonce: request.nonce)
        }
    }

    @Test("a refreshed ID token for another user is refused against the original")
    func refreshedForAnotherUser() async throws {
        let (simulator, client) = try world(.es256)
        let (_, alice) = try await register(simulator, client)
        let request = try await client.makeAuthorizationRequest()
        let callback = try await simulator.authorize(request.url, as: "bob@example.com")
        let bob = try await client.exchangeCode(try await client.authorizationCode(from: callback, for: request),
                                                for: request)
        await #expect(throws: OIDCError.invalidIDToken(.refreshedIdentityMismatch)) {
            try await client.validateRefreshedIDToken(try #require(bob.idToken),
                                                      originalIDToken: try #require(alice.idToken))
        }
    }
}
