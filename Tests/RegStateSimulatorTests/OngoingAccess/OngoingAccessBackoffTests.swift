import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import RegStateTesting
import Testing

/// Ongoing access backs off like the other token kinds: after a transient failure (an outage, a 429, a 503 with
/// `Retry-After`) the next call to the provider waits a jittered, growing backoff kept in the store, answering at once
/// with ``OngoingAccessError/backingOff(until:)`` and sending nothing; a success resets it.
@Suite("Ongoing access: transient backoff and Retry-After, kept in the store")
struct OngoingAccessBackoffTests {
    /// How many requests reached the provider.
    private static func sent(_ harness: OngoingAccessHarness) async -> Int {
        await harness.provider.requestLog.count
    }

    @Test("An outage costs one attempt per backoff step, however often the app restores; a held call sends nothing")
    func oneAttemptPerBackoffStep() async throws {
        let harness = try await OngoingAccessHarness()
        let token = try await harness.consentOnce()
        harness.clock.advance(by: 3600)
        await harness.provider.setOutage(status: 503)
        let start = harness.clock.now()
        var attempts = 0
        var held = 0
        // The app asks every quarter of a second for a minute.
        for _ in 0..<240 {
            let before = await Self.sent(harness)
            do throws(OngoingAccessError) {
                _ = try await harness.service().authorizeOngoingAccess(oAuthToken: token)
                Issue.record("the provider is down")
            } catch .backingOff(let until) {
                held += 1
                #expect(until > harness.clock.now())
                #expect(until.timeIntervalSince(harness.clock.now()) <= RenewalHoldPolicy.maximumBackoff * 1.2)
                #expect(await Self.sent(harness) == before, "a held call sends nothing")
            } catch {
                #expect(error.isTransient)
                attempts += 1
            }
            harness.clock.advance(by: 0.25)
        }
        // 1, 1.6, 2.56, … s (each ±20 %) fit 8 or 9 attempts in a minute; without the hold there would be 240.
        #expect((7...9).contains(attempts), "\(attempts) attempts in \(harness.clock.now().timeIntervalSince(start)) s")
        #expect(held == 240 - attempts)
        #expect(await harness.provider.refreshCount == 0)

        // Back: the first call past the hold refreshes, and the next failure starts the chain at 1 s again.
        await harness.provider.setOutage(status: nil)
        harness.clock.advance(by: RenewalHoldPolicy.maximumBackoff * 1.2)
        let restored = try await harness.service().authorizeOngoingAccess(oAuthToken: token)
        #expect(restored.refreshed)
        #expect(try harness.store.data(forKey: TokenService.ongoingAccessBackoffKey) == nil)
        await harness.provider.setOutage(status: 502)
        do throws(OngoingAccessError) {
            _ = try await harness.service().authorizeOngoingAccess(oAuthToken: restored.oAuthToken)
            Issue.record("the provider is down")
        } catch .providerRefused(status: 502, _) {
        } catch {
            Issue.record("\(error)")
        }
        do throws(OngoingAccessError) {
            _ = try await harness.service().authorizeOngoingAccess(oAuthToken: restored.oAuthToken)
            Issue.record("held")
        } catch .backingOff(let until) {
            #expect(until.timeIntervalSince(harness.clock.now()) <= RenewalHoldPolicy.initialBackoff * 1.2)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("The hold is in the store: another process and a relaunch are held by it, and send nothing")
    func sharedAndKeptAcrossLaunches() async throws {
        let harness = try await OngoingAccessHarness()
        let token = try await harness.consentOnce()
        await harness.provider.setOutage(status: 503, retryAfter: "120")
        let app = await harness.service()
        await #expect(throws: OngoingAccessError.rateLimited(retryAfter: 120)) {
            try await app.authorizeOngoingAccess(oAuthToken: token)
        }
        #expect(try harness.store.data(forKey: TokenService.ongoingAccessBackoffKey) != nil)
        let before = await Self.sent(harness)
        harness.clock.advance(by: 60)
        // An extension beside the app, and the app relaunched: each a service of its own over the same store.
        for service in [await harness.service(), await harness.service()] {
            await #expect(throws: OngoingAccessError.backingOff(until: harness.clock.now().addingTimeInterval(60))) {
                try await service.authorizeOngoingAccess(oAuthToken: token)
            }
        }
        #expect(await Self.sent(harness) == before)
    }

    @Test("Retry-After on a 429 or 503 is honoured: not retried before it has passed", arguments: [
        (503, "30", 30.0), (429, "30", 30.0), (503, "86400", RetryAfter.cap), (429, "7", 7.0),
    ])
    func retryAfterHonoured(status: Int, retryAfter: String, wait: TimeInterval) async throws {
        let harness = try await OngoingAccessHarness()
        let token = try await harness.consentOnce()
        harness.clock.advance(by: 3600)
        await harness.provider.setOutage(status: status, retryAfter: retryAfter)
        await #expect(throws: OngoingAccessError.rateLimited(retryAfter: Int(wait))) {
            try await harness.service().authorizeOngoingAccess(oAuthToken: token)
        }
        let sent = await Self.sent(harness)
        await harness.provider.setOutage(status: nil)
        // Every call before the wait has passed is held, the app's data calls included.
        let failedAt = harness.clock.now()
        for offset in [1.0, wait / 2, wait - 0.5] {
            harness.clock.set(failedAt.addingTimeInterval(offset))
            await #expect(throws: OngoingAccessError.backingOff(until: failedAt.addingTimeInterval(wait))) {
                try await harness.service().authorizeOngoingAccess(oAuthToken: token)
            }
        }
        #expect(await Self.sent(harness) == sent)
        harness.clock.set(failedAt.addingTimeInterval(wait))
        let restored = try await harness.service().authorizeOngoingAccess(oAuthToken: token)
        #expect(restored.refreshed)
        #expect(await harness.provider.refreshCount == 1)
    }

    @Test("Data calls: a 503 with Retry-After holds the next ones; held, they send nothing")
    func dataCallsHeld() async throws {
        let harness = try await OngoingAccessHarness()
        let service = await harness.service()
        _ = try await service.authorizeOngoingAccess()
        await harness.provider.setOutage(status: 503, retryAfter: "30")
        await #expect(throws: OngoingAccessError.rateLimited(retryAfter: 30)) { try await service.files() }
        let sent = await Self.sent(harness)
        await harness.provider.setOutage(status: nil)
        harness.clock.advance(by: 29)
        await #expect(throws: OngoingAccessError.backingOff(until: harness.clock.now().addingTimeInterval(1))) {
            try await service.accounts()
        }
        #expect(await Self.sent(harness) == sent)
        harness.clock.advance(by: 1)
        #expect(try await service.files().count == 5)
        #expect(try harness.store.data(forKey: TokenService.ongoingAccessBackoffKey) == nil)
    }

    @Test("Consent, the user's own action, cuts a hold short once per backoff step, not in a burst")
    func consentCutsShortOnce() async throws {
        let harness = try await OngoingAccessHarness(decisions: [.accept, .accept, .accept])
        let token = try await harness.consentOnce()
        await harness.provider.setOutage(status: 503, retryAfter: "600")
        await #expect(throws: OngoingAccessError.rateLimited(retryAfter: 600)) {
            try await harness.service().authorizeOngoingAccess(oAuthToken: token)
        }
        await harness.provider.setOutage(status: nil)
        let service = await harness.service()
        let sent = await Self.sent(harness)
        let consented = try await service.authorizeOngoingAccess()
        #expect(consented.origin == .consent)
        #expect(try harness.store.data(forKey: TokenService.ongoingAccessBackoffKey) == nil, "a success resets it")

        // Down again: on a relaunch the user taps "connect" twice in a row; one attempt reaches the provider.
        await harness.provider.setOutage(status: 503, retryAfter: "600")
        await #expect(throws: OngoingAccessError.rateLimited(retryAfter: 600)) {
            try await service.authorizeOngoingAccess(oAuthToken: consented.oAuthToken)
        }
        let relaunched = await harness.service()
        let before = await Self.sent(harness)
        harness.clock.advance(by: 1)
        await #expect(throws: OngoingAccessError.rateLimited(retryAfter: 600)) {
            try await relaunched.authorizeOngoingAccess()
        }
        #expect(await Self.sent(harness) == before + 1)
        let failedAt = harness.clock.now()
        harness.clock.advance(by: 1)
        await #expect(throws: OngoingAccessError.backingOff(until: failedAt.addingTimeInterval(600))) {
            try await relaunched.authorizeOngoingAccess()
        }
        #expect(await Self.sent(harness) == before + 1)
        #expect(sent > 0)
    }

    @Test("Without a token store the hold lives in the service")
    func inMemoryWithoutStore() async throws {
        let harness = try await OngoingAccessHarness()
        let token = try await harness.consentOnce()
        let configuration = await harness.provider.appConfiguration(appKeyID: OngoingAccessHarness.appKeyID)
        let service = OngoingAccessService(configuration: configuration, dependencies: OngoingAccessDependencies(
            appPrivateKey: harness.appKey, consent: harness.consent, transport: harness.provider.transport,
            clock: harness.clock))
        await harness.provider.setOutage(status: 503, retryAfter: "30")
        await #expect(throws: OngoingAccessError.rateLimited(retryAfter: 30)) {
            try await service.authorizeOngoingAccess(oAuthToken: token)
        }
        let sent = await Self.sent(harness)
        await #expect(throws: OngoingAccessError.backingOff(until: harness.clock.now().addingTimeInterval(30))) {
            try await service.authorizeOngoingAccess(oAuthToken: token)
        }
        #expect(await Self.sent(harness) == sent)
        #expect(try harness.store.data(forKey: TokenService.ongoingAccessBackoffKey) == nil)
    }
}
