import Foundation
import Testing
@testable import RegState
import RegStateTesting

/// The security token's single flight: one renewal at a time, every caller answered, and no second token bought for
/// one expiry. Both found by the rejecting-backend world of the simulation (seeds 82, 98 and 64).
@Suite("The security token's single flight")
struct SecurityTokenFlightTests {
    @Test("a caller whose token differs from the pending renewal's waits for that renewal, and every waiter gets its answer")
    func oneRenewalAtATime() async throws {
        // Seeds 82 and 98: a second caller with another token (one stored meanwhile, or none) started a second flight
        // in place of the first, whose waiters then waited forever (their answer was never resolved).
        let flight = SecurityTokenFlight(clock: ManualClock())
        #expect(await flight.admit(rejected: "") == .start)
        let second = await flight.admit(rejected: "stored-meanwhile")
        #expect(second == .wait)
        guard second == .wait else { return }
        async let first = flight.wait(for: "")
        async let other = flight.wait(for: "stored-meanwhile")
        while await flight.waiting < 2 { await Task.yield() }
        await flight.finish(.success("renewed"))
        #expect(try await first == "renewed")
        #expect(try await other == "renewed")
    }

    @Test("a caller that found a renewal pending and gets here after it landed takes the stored token, with no second exchange")
    func noSecondTokenForOneExpiry() async throws {
        // Seed 64: the caller saw a renewal pending, so it asked for the stored token's renewal as expired; by then
        // the renewal had landed and stored a fresh token, which was exchanged again (no hold, two tokens for one).
        let app = try await SelfRenewingApp()
        let stored = try await app.service.securityToken()
        let exchanges = await app.exchanges()
        #expect(try await app.service.securityTokenRejected(stored, because: .securityTokenExpired) == stored)
        #expect(await app.exchanges() == exchanges)
    }
}
