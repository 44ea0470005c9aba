import Foundation
import Testing
@testable import RegState
import RegStateTesting
import RegStateSimulator

/// TLS everywhere but loopback: the issuer, every endpoint discovery names, the passwordless start URL and the
/// backend must be `https`; plain `http` is refused with a typed error before anything is sent, except to loopback.
@Suite("TLS everywhere but loopback")
struct TransportSecurityTests {
    static let redirect = URL(string: "com.example.app:/callback")!

    static func world(_ change: (inout SimulatorConfiguration) -> Void = { _ in }) throws -> (Simulator, OIDCClient) {
        var configuration = SimulatorConfiguration(signingKey: EngineHarness.sharedSigningKey)
        change(&configuration)
        let simulator = try Simulator(configuration: configuration, clock: ManualClock())
        let client = OIDCClient(
            configuration: OIDCConfiguration(issuer: configuration.issuer, clientID: configuration.clientID,
                                             redirectURI: redirect),
            transport: simulator.transport, clock: ManualClock())
        return (simulator, client)
    }

    @Test("an http issuer on another host is refused before discovery is requested")
    func insecureIssuer() async throws {
        let (simulator, client) = try Self.world { $0.issuer = URL(string: "http://idp.example.test")! }
        await #expect(throws: OIDCError.insecureURL("issuer")) { _ = try await client.metadata() }
        await #expect(throws: OIDCError.insecureURL("issuer")) { _ = try await client.makeAuthorizationRequest() }
        await #expect(throws: OIDCError.insecureURL("issuer")) { _ = try await client.refresh(refreshToken: "rt") }
        #expect(await simulator.requestLog.isEmpty)
    }

    static let endpoints = ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "revocation_endpoint",
                            "jwks_uri", "end_session_endpoint"]

    @Test("a discovery document naming a plain-http endpoint is refused, and nothing is sent to it",
          arguments: endpoints)
    func insecureEndpoint(_ member: String) async throws {
        let (simulator, client) = try Self.world {
            $0.discoveryOverrides = [member: "http://idp.regstate.sim/downgraded"]
        }
        await #expect(throws: OIDCError.insecureURL(member)) { _ = try await client.metadata() }
        await #expect(throws: OIDCError.insecureURL(member)) { _ = try await client.refresh(refreshToken: "rt") }
        await #expect(throws: OIDCError.insecureURL(member)) { try await client.revoke(token: "rt") }
        await #expect(throws: UserInfoError.provider(.insecureURL(member))) {
            _ = try await client.userInfo(accessToken: "at", subject: "s")
        }
        let log = await simulator.requestLog
        #expect(Set(log) == ["GET /.well-known/openid-configuration"])
        #expect(!log.contains { $0.contains("downgraded") })
    }

    @Test("a plain-http revocation endpoint found only in RFC 8414 metadata is refused; the token is not sent")
    func insecureRFC8414Revocation() async throws {
        let (simulator, client) = try Self.world {
            $0.listsRevocationInDiscovery = false
            $0.discoveryOverrides = ["revocation_endpoint": "http://idp.regstate.sim/oauth/revoke"]
        }
        await #expect(throws: OIDCError.insecureURL("revocation_endpoint")) {
            try await client.revoke(token: "rt", hint: .refreshToken)
        }
        #expect(!(await simulator.requestLog).contains { $0.contains("revoke") })
    }

    @Test("the same endpoints over https on another host are accepted")
    func secureEndpoints() async throws {
        let (_, client) = try Self.world {
            $0.discoveryOverrides = ["revocation_endpoint": "https://revoke.example.test/r"]
        }
        #expect(try await client.metadata().revocationEndpoint == URL(string: "https://revoke.example.test/r"))
    }

    @Test("loopback issuers over plain http work end to end", arguments: [
        "http://127.0.0.1:8080", "http://localhost:9000/o", "http://[::1]:8443", "http://127.10.20.30",
    ])
    func loopbackIssuer(_ issuer: String) async throws {
        let (simulator, client) = try Self.world { $0.issuer = URL(string: issuer)! }
        let request = try await client.makeAuthorizationRequest()
        let callback = try await simulator.authorize(request.url, as: "alice@example.com")
        let code = try await client.authorizationCode(from: callback, for: request)
        let tokens = try await client.exchangeCode(code, for: request)
        _ = try await client.validateIDToken(try #require(tokens.idToken), expectedNonce: request.nonce)
    }

    @Test("a passwordless start URL over plain http is refused before the email is sent")
    func insecurePasswordless() async throws {
        let simulator = try Simulator(configuration: SimulatorConfiguration(signingKey: EngineHarness.sharedSigningKey))
        let client = OIDCClient(
            configuration: OIDCConfiguration(issuer: URL(string: "https://idp.regstate.sim")!, clientID: "regstate-cli",
                                             redirectURI: Self.redirect,
                                             passwordlessStartURL: URL(string: "http://idp.regstate.sim/passwordless/start")),
            transport: simulator.transport)
        await #expect(throws: RegistrationFailure(OIDCError.insecureURL("passwordless start URL"))) {
            try await PasswordlessGrant(provider: client).start(email: "alice@example.com")
        }
        #expect(await simulator.inbox(for: "alice@example.com").isEmpty)
    }

    @Test("a plain-http backend is refused before the ID token is sent; a loopback one is used")
    func backend() async throws {
        let simulator = try Simulator(configuration: SimulatorConfiguration(
            backendURL: URL(string: "http://api.regstate.sim")!, signingKey: EngineHarness.sharedSigningKey))
        let installation = InstallationInfo(installationID: "i", platform: "ios", formFactor: "phone")
        let insecure = HTTPRegistrationBackend(baseURL: URL(string: "http://api.regstate.sim")!,
                                               transport: simulator.transport)
        await #expect(throws: BackendError.insecureURL) {
            _ = try await insecure.securityToken(idToken: "id-token", installation: installation)
        }
        await #expect(throws: BackendError.insecureURL) { _ = try await insecure.registration(securityToken: "st") }
        await #expect(throws: BackendError.insecureURL) { try await insecure.deleteInstallation(securityToken: "st") }
        #expect(await simulator.requestLog.isEmpty)

        let loopback = try Simulator(configuration: SimulatorConfiguration(
            backendURL: URL(string: "http://127.0.0.1:8081")!, signingKey: EngineHarness.sharedSigningKey))
        let backend = HTTPRegistrationBackend(baseURL: URL(string: "http://127.0.0.1:8081")!, transport: loopback.transport)
        await #expect(throws: BackendError.invalidIDToken) {
            _ = try await backend.securityToken(idToken: "not-a-jwt", installation: installation)
        }
        #expect(await loopback.requestLog == ["POST /v1/security-token"])
    }

    @Test("the engine with an http issuer fails registration with F and sends nothing")
    func engine() async throws {
        let simulator = try Simulator(configuration: SimulatorConfiguration(
            issuer: URL(string: "http://idp.example.test")!, signingKey: EngineHarness.sharedSigningKey))
        let service = RegStateService(
            configuration: RegStateConfiguration(
                oidc: OIDCConfiguration(issuer: URL(string: "http://idp.example.test")!, clientID: "regstate-cli",
                                        redirectURI: Self.redirect)),
            dependencies: RegStateDependencies(store: InMemorySecureStore(), journal: InMemoryJournal(),
                                               transport: simulator.transport, clock: ManualClock()))
        #expect(await service.start() == .registrationRequired)
        await #expect(throws: (any Error).self) { _ = try await service.beginSocialRegistration() }
        guard case .failed(let error) = await service.state else {
            Issue.record("expected F")
            return
        }
        #expect(error.letter == "F")
        #expect(await simulator.requestLog.isEmpty)
    }

    @Test("which hosts are loopback", arguments: [
        ("http://127.0.0.1/", true), ("http://127.255.255.254:1/", true), ("http://LOCALHOST/", true),
        ("http://[::1]:80/", true), ("https://example.com/", true), ("HTTPS://Example.com", true),
        ("http://127.0.0.1.evil.example/", false), ("http://127.1/", false), ("http://0x7f.0.0.1/", false),
        ("http://localhost.evil.example/", false), ("http://128.0.0.1/", false), ("http://127.0.0.256/", false),
        ("http://[::2]/", false), ("http://example.com/", false), ("ftp://127.0.0.1/", false),
        ("file:///etc/passwd", false), ("https:///nohost", false), ("http://10.0.0.1/", false),
    ])
    func loopbackTable(_ url: String, _ allowed: Bool) throws {
        #expect(TransportSecurity.allows(try #require(URL(string: url))) == allowed)
    }
}
