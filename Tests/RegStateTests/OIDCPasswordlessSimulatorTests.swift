import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateSimulator

@Suite("Passwordless email against the simulator")
struct OIDCPasswordlessSimulatorTests {
    let clock = ManualClock()
    let simulator: Simulator
    let client: OIDCClient

    init() throws {
        simulator = try Simulator(configuration: SimulatorConfiguration(signingKey: EngineHarness.sharedSigningKey), clock: clock)
        client = OIDCClient(configuration: OIDCSimulatorEndToEndTests.configuration(), transport: simulator.transport,
                            clock: clock)
    }

    @Test("Start sends a code to the inbox; verifying it gives tokens and a valid ID token")
    func startAndVerify() async throws {
        try await PasswordlessGrant(provider: client).start(email: "dora@example.com")
        let code = try #require(await simulator.latestCode(for: "dora@example.com"))
        let tokens = try await PasswordlessGrant(provider: client).verify(email: "dora@example.com", code: code)
        let verified = try await client.validateIDToken(try #require(tokens.idToken), expectedNonce: nil)
        #expect(verified.profile.email == "dora@example.com")
        #expect(verified.profile.issuer == "https://idp.regstate.sim")
        #expect(tokens.refreshToken != nil)
    }

    @Test("A wrong code is wrongCode")
    func wrongCode() async throws {
        try await PasswordlessGrant(provider: client).start(email: "dora@example.com")
        let code = try #require(await simulator.latestCode(for: "dora@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        await #expect(throws: RegistrationFailure.wrongCode) {
            try await PasswordlessGrant(provider: client).verify(email: "dora@example.com", code: wrong)
        }
    }

    @Test("A code past its lifetime is codeExpired")
    func expiredCode() async throws {
        try await PasswordlessGrant(provider: client).start(email: "dora@example.com")
        let code = try #require(await simulator.latestCode(for: "dora@example.com"))
        clock.advance(by: 301)
        await #expect(throws: RegistrationFailure.codeExpired) {
            try await PasswordlessGrant(provider: client).verify(email: "dora@example.com", code: code)
        }
    }

    @Test("A code used once is codeReused the second time")
    func reusedCode() async throws {
        try await PasswordlessGrant(provider: client).start(email: "dora@example.com")
        let code = try #require(await simulator.latestCode(for: "dora@example.com"))
        _ = try await PasswordlessGrant(provider: client).verify(email: "dora@example.com", code: code)
        await #expect(throws: RegistrationFailure.codeReused) {
            try await PasswordlessGrant(provider: client).verify(email: "dora@example.com", code: code)
        }
    }

    @Test("An invalid address is refused locally and nothing reaches the inbox")
    func invalidEmail() async throws {
        await #expect(throws: RegistrationFailure.invalidEmail) { try await PasswordlessGrant(provider: client).start(email: "dora@") }
        #expect(await simulator.requestLog.isEmpty)
    }
}
