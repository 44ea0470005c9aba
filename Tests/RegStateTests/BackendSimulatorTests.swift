import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateSimulator

@Suite("Registration backend against the simulator")
struct BackendSimulatorTests {
    let clock = ManualClock()
    let simulator: Simulator
    let client: OIDCClient
    let backend: HTTPRegistrationBackend

    init() throws {
        simulator = try Simulator(configuration: SimulatorConfiguration(signingKey: EngineHarness.sharedSigningKey), clock: clock)
        client = OIDCClient(configuration: OIDCSimulatorEndToEndTests.configuration(), transport: simulator.transport,
                            clock: clock)
        backend = HTTPRegistrationBackend(baseURL: URL(string: "https://api.regstate.sim")!,
                                          transport: simulator.transport)
    }

    /// Signs `email` in by the passwordless path and returns the verified ID token.
    func idToken(_ email: String) async throws -> VerifiedIDToken {
        try await PasswordlessGrant(provider: client).start(email: email)
        let code = try #require(await simulator.latestCode(for: email))
        let tokens = try await PasswordlessGrant(provider: client).verify(email: email, code: code)
        return try await client.validateIDToken(try #require(tokens.idToken), expectedNonce: nil)
    }

    func installation(_ id: String) -> InstallationInfo {
        InstallationInfo(installationID: id, platform: "linux", formFactor: "desktop")
    }

    @Test("ID token → security token → registration → profile → registered → delete installation")
    func registration() async throws {
        let verified = try await idToken("alice@example.com")
        let grant = try await backend.securityToken(idToken: verified.token.compactSerialization,
                                                    installation: installation("inst-1"))
        #expect(!grant.registered)
        #expect(grant.expiresIn == 3600)
        #expect(try await backend.registration(securityToken: grant.securityToken)
            == RegistrationStatus(registered: false, profile: nil))
        try await backend.updateProfile(verified.profile, registrationType: .passwordless,
                                        securityToken: grant.securityToken)
        let status = try await backend.registration(securityToken: grant.securityToken)
        #expect(status == RegistrationStatus(registered: true, profile: BackendProfile(
            subject: verified.profile.subject, email: "alice@example.com", name: "Alice Example",
            registrationType: .passwordless)))
        #expect(await simulator.isRegistered(email: "alice@example.com"))
        try await backend.deleteInstallation(securityToken: grant.securityToken)
        await #expect(throws: BackendError.unauthorized) {
            try await backend.registration(securityToken: grant.securityToken)
        }
    }

    @Test("The device limit is a typed error")
    func deviceLimit() async throws {
        await simulator.setMaxDevicesPerUser(1)
        let verified = try await idToken("bob@example.com")
        let token = verified.token.compactSerialization
        _ = try await backend.securityToken(idToken: token, installation: installation("phone"))
        await #expect(throws: BackendError.tooManyRegisteredDevices) {
            try await backend.securityToken(idToken: token, installation: installation("tablet"))
        }
    }

    @Test("The per-device security token limit is a typed error")
    func securityTokenLimit() async throws {
        await simulator.setMaxSecurityTokensPerDevice(1)
        let token = try await idToken("bob@example.com").token.compactSerialization
        _ = try await backend.securityToken(idToken: token, installation: installation("phone"))
        await #expect(throws: BackendError.maxSecurityTokens) {
            try await backend.securityToken(idToken: token, installation: installation("phone"))
        }
    }

    @Test("An expired security token is unauthorized; a forced logout is forcedLogout")
    func expiryAndForcedLogout() async throws {
        let token = try await idToken("carol@example.com").token.compactSerialization
        let first = try await backend.securityToken(idToken: token, installation: installation("inst-a"))
        clock.advance(by: 3601)
        await #expect(throws: BackendError.unauthorized) { try await backend.registration(securityToken: first.securityToken) }

        let fresh = try await idToken("carol@example.com").token.compactSerialization
        let second = try await backend.securityToken(idToken: fresh, installation: installation("inst-a"))
        _ = try await simulator.forceLogout(email: "carol@example.com")
        await #expect(throws: BackendError.forcedLogout) { try await backend.registration(securityToken: second.securityToken) }
    }

    @Test("A tampered ID token is invalidIDToken")
    func tamperedIDToken() async throws {
        let token = try await idToken("alice@example.com").token.compactSerialization
        let tampered = String(token.dropLast(4)) + (token.hasSuffix("AAAA") ? "BBBB" : "AAAA")
        await #expect(throws: BackendError.invalidIDToken) {
            try await backend.securityToken(idToken: tampered, installation: installation("inst-1"))
        }
    }
}
