import Foundation
import Testing
@testable import RegState
import RegStateSimulator

@Suite("Concurrent renewal and subscribers")
struct ConcurrencyTests {
    @Test("given an expired token, when 50 callers ask for it at once, then exactly one refresh reaches the provider")
    func fiftyCallersOneRefresh() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        await harness.simulator.resetCounters()
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await service.validAccessToken() } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens.count == 50)
        #expect(Set(tokens).count == 1)
        #expect(await harness.simulator.refreshGrantCount == 1)
        #expect(await service.state.letter == "C")
        let requests = try await service.journalEntries().filter { $0.event == .renewalRequested(.expired) }
        #expect(requests.count == 1, "one journaled request for 50 callers of one expired token")
        // The session still works: the provider accepts the renewed token.
        harness.clock.advance(by: 3600)
        _ = try await service.validAccessToken()
        #expect(await harness.simulator.refreshGrantCount == 2)
    }

    @Test("given a valid token, when the host asks for a renewal, then one refresh, Active C, journaled as a host request")
    func hostRequestedRenewal() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let before = try #require(await harness.storedRefreshToken())
        #expect(await service.renewSession().letter == "C")
        #expect(await harness.simulator.refreshGrantCount == 1)
        #expect(await harness.storedRefreshToken() != before)
        #expect(try await service.journalEntries().contains { $0.event == .renewalRequested(.host) })
    }

    @Test("given several subscribers, when events happen, then each gets the latest on subscribing and every later one in order")
    func subscribersReplayLatest() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        var early = await EventTape(service)
        await service.start()
        var late = await EventTape(service)
        #expect(await late.next(1) == ["Registration Required D"])
        let url = try await service.beginSocialRegistration()
        try await service.completeSocialRegistration(callback: try await harness.simulator.authorize(url, as: "bob@example.com"))
        try await service.confirmRegistration()
        #expect(await early.next(3) == ["Registration Required D", "Awaiting Confirmation G", "Active H"])
        #expect(await late.next(2) == ["Awaiting Confirmation G", "Active H"])
    }

    @Test("given a subscriber that stops listening, then the service forgets it")
    func terminatedSubscriberIsRemoved() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        do {
            let stream = await service.events()
            _ = stream
        }
        await service.start()
        // The stream's termination handler removes the subscriber on the actor, asynchronously: poll, bounded.
        let deadline = ContinuousClock.now + .seconds(10)
        while await service.subscriberCount > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await service.subscriberCount == 0)
    }

    @Test("the journal folds to the live state after every path, and holds no token")
    func journalFoldsToState() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        _ = try await service.validAccessToken()
        let entries = try await service.journalEntries()
        #expect(JournalEntry.fold(entries) == (await service.state))
        let text = String(decoding: harness.journal.rawBytes, as: UTF8.self)
        let refresh = try #require(await harness.storedRefreshToken())
        let access = try #require(await TokenService(store: harness.store, clock: harness.clock).accessToken()?.token)
        #expect(!text.contains(refresh))
        #expect(!text.contains(access))
        // A relaunch replays it: the folded state before the launch event is the one we left.
        let relaunched = harness.launch()
        #expect(await relaunched.start().letter == "B")
    }
}
