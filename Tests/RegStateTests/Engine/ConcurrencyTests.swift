import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTestSupport

@Suite("Concurrent renewal and subscribers")
struct ConcurrencyTests {
    @Test("given an expired token, when 50 callers ask for it at once, then exactly one refresh reaches the provider")
    func fiftyCallersOneRefresh() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        await harness.simulator.resetCounters()
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await service.validAccessToken().token } }
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
        _ = try await service.validAccessToken().token
        #expect(await harness.simulator.refreshGrantCount == 2)
    }

    @Test("given an expired token, when 1,000 callers ask at once, then they share one renewal and a handful of store reads, not one each")
    func thousandCallersShareTheReads() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        await harness.simulator.resetCounters()
        let readsBefore = harness.store.readCount(forKey: "credentials")
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1_000 { group.addTask { try await service.validAccessToken().token } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens.count == 1_000)
        #expect(Set(tokens).count == 1)
        #expect(await harness.simulator.refreshGrantCount == 1)
        let reads = harness.store.readCount(forKey: "credentials") - readsBefore
        // Each caller reading the record for itself made about 3,600 reads; a shared answer makes a few per round of
        // callers (the read that finds the token expired, the renewal's own, the read of the renewed token).
        #expect(reads <= 50, "credentials record read \(reads) times for 1,000 callers")
        // A caller after the shared answer gets the renewed token from the store, without a second grant.
        #expect(try await service.validAccessToken().token == tokens.first)
        #expect(await harness.simulator.refreshGrantCount == 1)
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
        try await harness.signIn(service, as: "bob@example.com")
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
            #expect(await service.subscriberCount == 1, "the live stream is a subscriber")
            _ = stream
        }
        await service.start()
        // The stream's termination handler removes the subscriber on the actor, asynchronously: poll, bounded.
        let deadline = ContinuousClock.now + .seconds(10)
        while await service.subscriberCount > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await service.subscriberCount == 0)
    }

    enum JournalPath: String, CaseIterable, Sendable {
        case social, passwordless, retry, badCallback, renewal, offline, refused, logout

        /// Where a relaunch after this path settles.
        var relaunchLetter: Character {
            switch self {
            case .social, .passwordless, .renewal, .offline: "B"
            case .retry, .badCallback, .refused, .logout: "D"
            }
        }
    }

    @Test("the journal folds to the live state after each path, holds no token, and folds again after a relaunch",
          arguments: JournalPath.allCases)
    func journalFoldsToState(_ path: JournalPath) async throws {
        let harness = try EngineHarness()
        let tokens = TokenService(store: harness.store, clock: harness.clock)
        var secrets: [String] = []
        func collectSecrets() async {
            if let access = await tokens.snapshot()?.accessToken { secrets.append(access) }
            if let refresh = await tokens.snapshot()?.refreshToken { secrets.append(refresh) }
        }
        let service = harness.launch()
        await service.start()
        switch path {
        case .social, .renewal, .offline, .refused, .logout:
            try await harness.signIn(service, as: "alice@example.com")
            try await service.confirmRegistration()
        case .passwordless:
            try await service.beginPasswordlessRegistration(email: "carol@example.com")
            let code = try #require(await harness.simulator.latestCode(for: "carol@example.com"))
            try await service.completePasswordlessRegistration(code: code)
            await collectSecrets()
            try await service.confirmRegistration()
        case .retry:
            try await harness.signIn(service, as: "alice@example.com")
            await collectSecrets()
            try await service.retryRegistration()
        case .badCallback:
            let url = try await service.beginSocialRegistration()
            await #expect(throws: RegStateServiceError.self) {
                try await service.completeSocialRegistration(callback: try await harness.simulator.deny(url))
            }
        }
        await collectSecrets()
        switch path {
        case .renewal:
            harness.clock.advance(by: 3600)
            _ = try await service.validAccessToken().token
        case .offline:
            harness.clock.advance(by: 3600)
            await harness.simulator.setOffline(true)
            await #expect(throws: RegStateServiceError.self) { try await service.validAccessToken().token }
        case .refused:
            harness.clock.advance(by: 3600)
            await harness.simulator.setRefusesRefresh(true)
            await #expect(throws: RegStateServiceError.self) { try await service.validAccessToken().token }
        case .logout:
            try await service.logout()
        case .social, .passwordless, .retry, .badCallback:
            break
        }
        await collectSecrets()
        #expect(try await service.journalFold() == (await service.state))
        let text = String(decoding: harness.journal.rawBytes, as: UTF8.self)
        #expect(!secrets.isEmpty || path == .badCallback, "the path issued tokens to look for")
        for secret in secrets { #expect(!text.contains(secret)) }
        // A relaunch replays the journal and appends to it; the fold still agrees with the live state.
        let relaunched = harness.launch()
        #expect(await relaunched.start().letter == path.relaunchLetter)
        #expect(JournalEntry.fold(try await relaunched.journalEntries()) == (await relaunched.state))
    }
}
