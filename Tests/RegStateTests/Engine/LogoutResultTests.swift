import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTestSupport

/// Logout says what happened at the provider: revoked, no revocation offered (the token stays valid there), refused,
/// or — throwing, with nothing changed — could not be reached.
@Suite("Logout tells the truth")
struct LogoutResultTests {
    @Test("a provider with revocation: .revoked, the token is dead at the provider, D")
    func revoked() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let refreshToken = try #require(await harness.storedRefreshToken())
        #expect(try await service.logout().result == .revoked)
        #expect(await service.state == .registrationRequired)
        let client = OIDCClient(configuration: harness.configuration.oidc, transport: harness.simulator.transport,
                                clock: harness.clock)
        await #expect(throws: OIDCError.oauth(error: "invalid_grant", description: "The refresh token has been revoked.",
                                              status: 400)) {
            _ = try await client.refresh(refreshToken: refreshToken)
        }
    }

    @Test("a provider without revocation (as Glewlwyd): .revocationUnsupported, local data cleared, and the token still works there")
    func unsupported() async throws {
        let harness = try EngineHarness { configuration in configuration.offersRevocation = false }
        let service = try await harness.registeredService()
        let refreshToken = try #require(await harness.storedRefreshToken())
        let result = try await service.logout().result
        #expect(result == .revocationUnsupported)
        #expect(result != .revoked)
        #expect(result.description.contains("stays valid"))
        #expect(await service.state == .registrationRequired)
        #expect(await harness.storedRefreshToken() == nil)
        let client = OIDCClient(configuration: harness.configuration.oidc, transport: harness.simulator.transport,
                                clock: harness.clock)
        _ = try await client.refresh(refreshToken: refreshToken)  // the truth the result told: not revoked
    }

    @Test("a provider that refuses the revocation: .revocationRefused with its reason, local data cleared")
    func refused() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let refusal = HTTPResponse.json(400, ["error": "unsupported_token_type"])
        let transport = RecordingTransport(base: harness.simulator.transport) { request, _, base throws(TransportError) in
            RecordingTransport.Kind(request) == .revocation ? refusal : try await base.send(request)
        }
        let service = RegStateService(configuration: harness.configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: transport, clock: harness.clock))
        #expect(await service.start().letter == "B")
        let result = try await service.logout().result
        guard case .revocationRefused(let reason) = result else {
            Issue.record("expected a refused revocation, got \(result)")
            return
        }
        #expect(reason.contains("unsupported_token_type"))
        #expect(await harness.storedRefreshToken() == nil)
    }

    @Test("no revocation endpoint and the provider gone (metadata cached from registration): offline, nothing changes — never 'unsupported' without an answer")
    func unsupportedButUnreachable() async throws {
        let harness = try EngineHarness { configuration in configuration.offersRevocation = false }
        let service = try await harness.registeredService()
        let refreshToken = await harness.storedRefreshToken()
        await harness.simulator.setOffline(true)
        await #expect(throws: RegStateServiceError.offline(.noInternet)) { try await service.logout() }
        #expect(await harness.storedRefreshToken() == refreshToken)
        #expect(await service.state.session != nil)
    }
}

