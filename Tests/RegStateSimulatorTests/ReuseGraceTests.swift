import Foundation
import RegState
import RegStateSimulator
import Testing

/// `refreshReuseGrace` (`--sim-reuse-grace`): the providers' grace for a retried refresh whose answer was lost.
@Suite("Simulator: refresh-token reuse grace")
struct ReuseGraceTests {
    @Test("within the grace, the just-retired refresh token renews again and nothing is revoked; after it, reuse revokes the family")
    func graceThenStrict() async throws {
        var configuration = SimulatorHarness.defaultConfiguration
        configuration.refreshReuseGrace = 30
        let harness = try SimulatorHarness(configuration: configuration)
        let original = try #require(try await harness.signIn().refreshToken)
        let lost = try harness.tokens(from: try await harness.refresh(original))
        harness.clock.advance(by: 29)
        let retried = try harness.tokens(from: try await harness.refresh(original))
        #expect(retried.refreshToken != nil && retried.refreshToken != original)
        // Nothing was revoked: the answer that was "lost" still works, and so does the retried one.
        #expect(try await harness.userinfo(lost.accessToken).status == 200)
        #expect(try await harness.userinfo(retried.accessToken).status == 200)
        harness.clock.advance(by: 2)
        let late = try await harness.refresh(original)
        #expect(late.errorCode == "invalid_grant")
        #expect(late.errorDescription?.contains("reuse") == true)
        #expect(try await harness.userinfo(retried.accessToken).status == 401)
    }

    @Test("with the default (no grace), the retried refresh revokes the family at once")
    func strictByDefault() async throws {
        let harness = try SimulatorHarness()
        let original = try #require(try await harness.signIn().refreshToken)
        _ = try harness.tokens(from: try await harness.refresh(original))
        #expect(try await harness.refresh(original).errorCode == "invalid_grant")
    }
}
