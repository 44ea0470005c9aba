import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

@Suite("Launch budget: a stalled provider never holds the launch")
struct LaunchBudgetTests {
    private func launch(_ harness: EngineHarness, budget: TimeInterval) -> RegStateService {
        var configuration = harness.configuration
        configuration.launchBudget = budget
        return RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport,
            clock: harness.clock, logger: harness.logger))
    }

    /// Starts `service` and moves the test's clock past `budget` once the launch has set its timer (the provider holds
    /// its answers, so the renewal is still out): the budget runs out on the test's clock, never on wall time.
    private func startPastBudget(_ service: RegStateService, _ harness: EngineHarness, budget: TimeInterval) async
        -> RegState
    {
        let launching = Task { await service.start() }
        while harness.clock.pendingSleeps == 0 { await Task.yield() }
        harness.clock.advance(by: budget)
        return await launching.value
    }

    @Test("the default launch budget is 2 s")
    func defaultBudget() throws {
        let harness = try EngineHarness()
        #expect(RegStateConfiguration(oidc: harness.configuration.oidc).launchBudget == 2)
    }

    @Test("given an expired token and a provider that never answers, launch settles E then B offline; C follows when the renewal lands, with one grant")
    func stalledProviderSettlesOfflineThenC() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let oldRefresh = try #require(await harness.storedRefreshToken())
        harness.clock.advance(by: 3600)
        await harness.simulator.setHoldsRequests(true)
        let service = launch(harness, budget: 0.05)
        var tape = await EventTape(service)
        let state = await startPastBudget(service, harness, budget: 0.05)
        #expect(state.letter == "B")
        #expect(state.session?.connectivity == .offline(.noInternet))
        #expect(await tape.next(2) == ["Error E", "Active B"])
        #expect(await harness.storedRefreshToken() == oldRefresh, "nothing stored while the grant is held")
        await harness.simulator.setHoldsRequests(false)
        #expect(await tape.next(1) == ["Active C"])
        #expect(await service.state.letter == "C")
        #expect(await harness.simulator.refreshGrantCount == 1)
        #expect(await harness.storedRefreshToken() != oldRefresh)
    }

    @Test("given a stalled provider, the 30 s budget runs on the test's clock: the launch waits while it stands still, settles offline once it passes 30 s")
    func budgetRunsOnTheTestClock() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        await harness.simulator.setHoldsRequests(true)
        let service = launch(harness, budget: 30)
        let launching = Task { await service.start() }
        while harness.clock.pendingSleeps == 0 { await Task.yield() }
        harness.clock.advance(by: 29.9)
        for _ in 0..<200 { await Task.yield() }
        #expect(await service.state == .unsettled, "29.9 s of the test's clock: still within the budget")
        #expect(harness.clock.pendingSleeps == 1)
        harness.clock.advance(by: 0.1)
        let state = await launching.value
        #expect(state.letter == "B")
        #expect(state.session?.connectivity == .offline(.noInternet))
        await harness.simulator.setHoldsRequests(false)
        await service.finishPendingRenewal()
        #expect(await service.state.letter == "C")
        #expect(await harness.simulator.refreshGrantCount == 1)
    }

    @Test("given a provider that answers within the budget, launch is C with no offline detour")
    func answerInTimeIsC() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        let service = launch(harness, budget: 30)
        var tape = await EventTape(service)
        #expect(await service.start().letter == "C")
        #expect(await tape.next(1) == ["Active C"])
    }

    @Test("given an infinite budget and a provider that answers late, launch waits for it: C, never the offline detour")
    func infiniteBudgetWaitsForTheRenewal() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        await harness.simulator.setHoldsRequests(true)
        let transport = RecordingTransport(base: harness.simulator.transport)
        var configuration = harness.configuration
        configuration.launchBudget = .infinity
        let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal,
            transport: transport,
            clock: harness.clock, logger: harness.logger))
        var tape = await EventTape(service)
        let launching = Task { await service.start() }
        // Released only once the renewal has reached the provider: the launch is waiting for it, not for a timer.
        while transport.requests.isEmpty { await Task.yield() }
        await harness.simulator.setHoldsRequests(false)
        #expect(await launching.value.letter == "C")
        #expect(await tape.next(1) == ["Active C"])
        #expect(await harness.simulator.refreshGrantCount == 1)
    }

    @Test("given a stalled launch renewal, a caller asking for the token joins it: still one grant")
    func callerJoinsTheHeldRenewal() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        await harness.simulator.setHoldsRequests(true)
        let service = launch(harness, budget: 0.05)
        #expect(await startPastBudget(service, harness, budget: 0.05).letter == "B")
        let caller = Task { try? await service.validAccessToken().token }
        await harness.simulator.setHoldsRequests(false)
        _ = await caller.value
        _ = await service.settled()
        #expect(await harness.simulator.refreshGrantCount == 1)
    }
}

