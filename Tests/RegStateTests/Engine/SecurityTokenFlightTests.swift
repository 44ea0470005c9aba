import Foundation
import Testing
@testable import RegState
import RegStateTesting

/// The security token's single flight hands one renewal's result to every caller it admitted to wait, whichever
/// token the caller saw and whenever the renewal lands.
@Suite("The security token's single flight")
struct SecurityTokenFlightTests {
    @Test("a caller admitted to wait for another token's renewal gets its result even when it lands before the caller waits")
    func resultLandedBetweenAdmissionAndWait() async throws {
        let flight = SecurityTokenFlight(clock: ManualClock())
        #expect(await flight.admit(rejected: "token-a") == .start)
        // Another process stored token-b meanwhile; its caller is admitted to wait for the pending renewal.
        #expect(await flight.admit(rejected: "token-b") == .wait)
        await flight.finish(.success("token-c"))
        #expect(try await flight.wait(for: "token-b") == "token-c")
        #expect(try await flight.wait(for: "token-a") == "token-c")
    }

    @Test("a caller that waits before the renewal lands gets its result; a failure reaches every waiter")
    func waitersGetTheResult() async throws {
        let flight = SecurityTokenFlight(clock: ManualClock())
        #expect(await flight.admit(rejected: "token-a") == .start)
        let waiter = Task { () async throws(RegStateServiceError) -> String in try await flight.wait(for: "token-a") }
        while await flight.waiting == 0 { await Task.yield() }
        await flight.finish(.failure(.noSession))
        await #expect(throws: RegStateServiceError.noSession) { try await waiter.value }
    }

    @Test("a failed renewal's hold, in memory, is never longer than its backoff from now: the clock set back a day does not hold the token for a day")
    func failureHoldAfterTheClockWentBack() async throws {
        let clock = ManualClock()
        let flight = SecurityTokenFlight(clock: clock)
        #expect(await flight.admit(rejected: "token-a") == .start)
        await flight.finish(.failure(.offline(.noInternet)))
        clock.advance(by: -86_400)
        #expect(await flight.admit(rejected: "token-a") == .exhausted, "held, for its 30 s backoff from now")
        clock.advance(by: 31)
        #expect(await flight.admit(rejected: "token-a") == .start, "not for a day")
    }

    @Test("a failed renewal kept for its token's callers does not answer them after the clock was set back: its held rejection's time no longer measures from now")
    func settledFailureAfterTheClockWentBack() async throws {
        let clock = ManualClock()
        let flight = SecurityTokenFlight(clock: clock)
        #expect(await flight.admit(rejected: "token-a") == .start)
        await flight.finish(.failure(.rejectionHeld(until: clock.now().addingTimeInterval(60))))
        #expect(await flight.admit(rejected: "token-a") == .wait, "the kept failure answers at once")
        clock.advance(by: -600)
        #expect(await flight.admit(rejected: "token-a") == .exhausted, "the in-memory backoff only, cut to it from now")
    }
}
