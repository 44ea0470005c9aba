import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// Clear-state and the backend (issue 20): the installation is deregistered when the backend can be reached, and
/// when it cannot (or refuses) local state is still cleared and the result says what did not happen.
@Suite("Clear-state deregisters the installation")
struct ClearStateBackendTests {
    @Test("online: the backend forgets the installation (the device slot is free), local state is gone")
    func onlineDeregisters() async throws {
        let harness = try EngineHarness { $0.maxDevicesPerUser = 1 }
        let service = try await harness.registeredService()
        #expect(await harness.simulator.registeredInstallationCount(for: "alice@example.com") == 1)
        let result = await service.clearState()
        #expect(result.installation == .deregistered)
        #expect(!result.installation.mayStillBeRegistered)
        #expect(result.removedKeys.contains(TokenService.credentialsKey))
        #expect(await harness.simulator.registeredInstallationCount(for: "alice@example.com") == 0)
        // The slot is free: registering again on the same device works even with a limit of one.
        try await harness.signIn(service)
        try await service.confirmRegistration()
        #expect(await service.state.letter == "H")
    }

    @Test("offline: local state is cleared anyway and the result says the installation is still registered")
    func offlineSaysStillRegistered() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        await harness.simulator.setOffline(true)
        let result = await service.clearState()
        #expect(result.installation == .offline(.noInternet))
        #expect(result.installation.mayStillBeRegistered)
        #expect(result.installation.description.contains("still registered at the backend (offline)"))
        #expect(result.removedKeys.contains(TokenService.credentialsKey))
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == nil)
        #expect(await service.state == .registrationRequired)
        await harness.simulator.setOffline(false)
        #expect(await harness.simulator.registeredInstallationCount(for: "alice@example.com") == 1)
    }

    @Test("an expired security token: the backend refuses (401), local state is cleared, the result says so")
    func refusedSaysSo() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        harness.clock.advance(by: 2 * 3_600)
        let result = await service.clearState()
        #expect(result.installation == .refused(.unauthorized))
        #expect(result.installation.mayStillBeRegistered)
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == nil)
    }

    @Test("nothing stored, or no backend: nothing is claimed about the backend")
    func nothingToDeregister() async throws {
        let harness = try EngineHarness()
        let fresh = harness.launch()
        await fresh.start()
        #expect(await fresh.clearState().installation == .notRegistered)

        var configuration = harness.configuration
        configuration.backendURL = nil
        let local = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: InMemorySecureStore(), journal: InMemoryJournal(), transport: harness.simulator.transport,
            clock: harness.clock))
        await local.start()
        try await harness.signIn(local)
        try await local.confirmRegistration()
        #expect(await local.clearState().installation == .noBackend)
    }
}
