import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

/// A provider outage costs it one grant per backoff step per install, whatever the app's call rate: the hold after a
/// transient failure lives in the store (every process, every launch), a held call answers the recoverable E at once,
/// `Retry-After` lengthens the hold, a success ends it, and the user's "retry" cuts it short once per step.
@Suite("Transient backoff: one grant per backoff step, shared through the store, Retry-After honoured")
struct TransientBackoffTests {
    /// The most attempts `elapsed` seconds can hold if every delay were the shortest the jitter allows (80 %), plus
    /// the first attempt.
    static func bound(elapsed: TimeInterval) -> Int {
        var attempts = 1
        var nominal = RenewalHoldPolicy.initialBackoff
        var time = nominal * 0.8
        while time <= elapsed {
            attempts += 1
            nominal = min(nominal * RenewalHoldPolicy.multiplier, RenewalHoldPolicy.maximumBackoff)
            time += nominal * 0.8
        }
        return attempts
    }

    /// A registered install whose access token has expired.
    static func expiredInstall() async throws -> (EngineHarness, RegStateService) {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        harness.clock.advance(by: 3_600)
        return (harness, service)
    }

    @Test("an app calling every 0.5 s through a 10-minute outage sends at most one grant per backoff step; without holds, one per call (120 calls)")
    func outageCost() async throws {
        for policy in [RenewalHoldPolicy.standard, .off] {
            let harness = try EngineHarness()
            var configuration = harness.configuration
            configuration.renewalHoldPolicy = policy
            let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
                store: harness.store, journal: harness.journal, transport: harness.simulator.transport, clock: harness.clock))
            await service.start()
            try await harness.signIn(service)
            try await service.confirmRegistration()
            harness.clock.advance(by: 3_600)
            await harness.simulator.setProviderDown(true)
            // A renewal fetches the issuer's keys before its grant (a rotated key is never met unchecked), so in an
            // outage its attempt stops at the key set: an attempt is a key-set request or a grant.
            func attempts() async -> Int {
                await harness.simulator.refreshGrantCount + harness.simulator.keySetRequestCount
            }
            let before = await attempts()
            let calls = policy == .standard ? 1_200 : 120
            for _ in 0..<calls {
                await #expect(throws: RegStateServiceError.offline(.ssoUnspecifiedIssue)) { try await service.validAccessToken() }
                harness.clock.advance(by: 0.5)
            }
            let grants = await attempts() - before
            if policy == .standard {
                #expect(grants <= Self.bound(elapsed: 600), "\(grants) attempts")
                #expect(grants >= 10, "the backoff grows, it does not stop: \(grants)")
            } else {
                #expect(grants == calls)
            }
            #expect(await service.state.session != nil, "the session is kept")
        }
    }

    @Test("the hold is in the store: a relaunch, and a second process, send nothing while it holds")
    func sharedAndKept() async throws {
        let (harness, service) = try await Self.expiredInstall()
        let transport = RecordingTransport.answeringRefreshGrants(
            HTTPResponse(status: 503, headers: ["Retry-After": "30"]), base: harness.simulator.transport)
        let first = harness.launch(transport: transport)
        #expect(await first.start().session?.connectivity == .offline(.ssoUnspecifiedIssue))
        #expect(transport.refreshes == 1)
        let record = try #require(await TokenService(store: harness.store, clock: harness.clock).snapshot()?.record)
        #expect(record.accessTokenBackoff?.until == harness.clock.now().addingTimeInterval(30))
        harness.clock.advance(by: 10)
        let relaunched = harness.launch(transport: transport)
        #expect(await relaunched.start().session?.connectivity.isOffline == true)
        await #expect(throws: RegStateServiceError.self) { try await service.validAccessToken() }
        await #expect(throws: RegStateServiceError.self) { try await relaunched.validAccessToken() }
        #expect(transport.refreshes == 1, "nothing sent while the hold lasts, by any process or launch")
        _ = service
    }

    @Test("a 503 with Retry-After: 30 is not retried for 30 s; then a success renews (C) and removes the hold")
    func retryAfterThenSuccess() async throws {
        let (harness, _) = try await Self.expiredInstall()
        let transport = RecordingTransport.answeringRefreshGrants(
            HTTPResponse(status: 503, headers: ["Retry-After": "30"]), base: harness.simulator.transport)
        let service = harness.launch(transport: transport)
        await service.start()
        for _ in 0..<29 {
            harness.clock.advance(by: 1)
            await #expect(throws: RegStateServiceError.offline(.ssoUnspecifiedIssue)) { try await service.validAccessToken() }
        }
        #expect(transport.refreshes == 1, "29 s of calls, no grant")
        harness.clock.advance(by: 1)
        _ = try await service.validAccessToken()
        #expect(transport.refreshes == 2)
        #expect(await service.state.letter == "C")
        let record = try #require(await TokenService(store: harness.store, clock: harness.clock).snapshot()?.record)
        #expect(record.accessTokenBackoff == nil, "a success starts the chain again")
    }

    @Test("the user's retry (renewSession) cuts a hold short once per backoff step, however often it is tapped")
    func cutShort() async throws {
        let (harness, _) = try await Self.expiredInstall()
        let transport = RecordingTransport.answeringRefreshGrants(
            HTTPResponse(status: 503, headers: ["Retry-After": "60"]), base: harness.simulator.transport)
        let service = harness.launch(transport: transport)
        await service.start()
        #expect(transport.refreshes == 1)
        // Down, a renewal's attempt stops at the key set it fetches before its grant: count both.
        let keySet = RecordingTransport.Kind.path("/.well-known/jwks.json")
        let keySetBefore = transport.requests(keySet).count
        await harness.simulator.setProviderDown(true)
        for _ in 0..<20 { await service.renewSession() }
        #expect(transport.refreshes + transport.requests(keySet).count - keySetBefore == 2, "twenty taps: one attempt")
        await harness.simulator.setProviderDown(false)
        // The last hold (96 s at the least, 60 × 1.6 × 0.8 = 76.8 s) holds the next taps too, until a hold's length
        // has passed since the cut.
        harness.clock.advance(by: 70)
        await service.renewSession()
        #expect(transport.refreshes == 1, "held: nothing sent")
        harness.clock.advance(by: 80)
        #expect(await service.renewSession().letter == "C")
        #expect(transport.refreshes == 2)
    }

    @Test("the backend security token: a 503 with Retry-After holds the exchange in the store; calls answer offline at once")
    func securityTokenHold() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let transport = RecordingTransport(base: harness.simulator.transport) { request, _, base throws(TransportError) in
            if request.method == .post, request.url.path.hasSuffix("/v1/security-token") {
                return HTTPResponse(status: 503, headers: ["Retry-After": "45"])
            }
            return try await base.send(request)
        }
        let service = harness.launch(transport: transport)
        await service.start()
        harness.clock.advance(by: 3_600 * 24)
        let exchanges = { transport.requests(.path("/v1/security-token")).count }
        await #expect(throws: RegStateServiceError.self) { try await service.securityToken() }
        let first = exchanges()
        #expect(first >= 1)
        let record = try #require(await TokenService(store: harness.store, clock: harness.clock).snapshot()?.record)
        #expect(record.securityTokenBackoff?.backoff == 45)
        for _ in 0..<10 {
            await #expect(throws: RegStateServiceError.self) { try await service.securityToken() }
            harness.clock.advance(by: 4)
        }
        #expect(exchanges() == first, "nothing sent within the server's 45 s")
    }

    @Test("the user's retry (renewSession) cuts the security token's hold short: one exchange per backoff step")
    func securityTokenCutShort() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let down = LockedValue(true)
        let transport = RecordingTransport(base: harness.simulator.transport) { request, _, base throws(TransportError) in
            if request.method == .post, request.url.path.hasSuffix("/v1/security-token"), down.withLock({ $0 }) {
                return HTTPResponse(status: 503, headers: ["Retry-After": "120"])
            }
            return try await base.send(request)
        }
        let service = harness.launch(transport: transport)
        await service.start()
        harness.clock.advance(by: 3_600 * 24)
        let exchanges = { transport.requests(.path("/v1/security-token")).filter { $0.method == .post }.count }
        await #expect(throws: RegStateServiceError.self) { try await service.securityToken() }
        let first = exchanges()
        // Still down: ten taps of "retry" in a row cost the backend one exchange.
        for _ in 0..<10 { await service.renewSession() }
        #expect(exchanges() == first + 1)
        await #expect(throws: RegStateServiceError.self) { try await service.securityToken() }
        #expect(exchanges() == first + 1, "held: nothing sent")
        // Back, and the hold over: the app's next call exchanges once and has its token.
        down.withLock { $0 = false }
        harness.clock.advance(by: RenewalHoldPolicy.maximumBackoff * 1.2)
        _ = try await service.securityToken()
        #expect(exchanges() == first + 2)
    }
}
