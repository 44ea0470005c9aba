import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateSimulator

/// Issue 14: lifetimes the provider sends are input. The renewal grace is the configured one but at most half the
/// lifetime granted, so a token shorter than the grace is not renewed on every call; 0 is refused, an absurd
/// lifetime clamped.
@Suite("Renewal grace adapts to the lifetime the provider grants")
struct LifetimeGraceTests {
    @Test("a 30 s token with the 60 s default grace: over 10 virtual minutes of calls, grants stay bounded by lifetimes")
    func shortLifetimeBoundsGrants() async throws {
        let harness = try EngineHarness { $0.accessTokenLifetime = 30 }
        let service = try await harness.registeredService()
        await harness.simulator.resetCounters()
        var calls = 0
        for _ in 0..<600 {
            harness.clock.advance(by: 1)
            for _ in 0..<3 {
                _ = try await service.validAccessToken().token
                calls += 1
            }
        }
        let grants = await harness.simulator.refreshGrantCount
        // The token is renewed when half of its 30 s is left: one grant per 15 s at most, never one per call.
        #expect(grants >= 1)
        #expect(grants <= 600 / 15 + 1, "\(grants) grants for \(calls) calls")
    }

    @Test("the grace is the configured one for a long token and half the lifetime for a short one")
    func graceRule() async throws {
        let harness = try EngineHarness { $0.accessTokenLifetime = 30 }
        let service = try await harness.registeredService()
        let first = try await service.validAccessToken().token
        harness.clock.advance(by: 14)
        #expect(try await service.validAccessToken().token == first, "usable for half its life")
        // Renewed at a point drawn inside the grace window (the renewal spread), at the latest when a tenth of the grace
        // (1.5 s) is left: 28.5 s into its 30 s life.
        harness.clock.advance(by: 15)
        #expect(try await service.validAccessToken().token != first, "renewed inside the grace window")
    }

    @Test("expires_in 0 is a typed error; a long one is clamped; one out of range is refused")
    func zeroAndAbsurdLifetimes() throws {
        #expect(throws: OIDCError.malformedResponse("expires_in is 0")) {
            try TokenResponse.parse(HTTPResponse(status: 200, headers: [:],
                                                 body: Data(#"{"access_token":"a","token_type":"Bearer","expires_in":0}"#.utf8)))
        }
        let long = try TokenResponse.parse(HTTPResponse(status: 200, headers: [:],
            body: Data(#"{"access_token":"a","token_type":"Bearer","expires_in":1e10}"#.utf8)))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(long.expiresAt(from: now) == now.addingTimeInterval(TokenResponse.maximumLifetime))
        #expect(throws: OIDCError.malformedResponse("expires_in is out of range")) {
            try TokenResponse.parse(HTTPResponse(status: 200, headers: [:],
                                                 body: Data(#"{"access_token":"a","token_type":"Bearer","expires_in":1e300}"#.utf8)))
        }
    }
}
