import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// The engine's device list (issue 20): `registeredDevices()` and `removeDevice(id:)` through the backend, so that
/// `TOO_MANY_REGISTERED_DEVICES` can be acted on.
@Suite("Registered devices")
struct DeviceListEngineTests {
    @Test("a second device at the limit fails with tooManyRegisteredDevices, lists the first, removes it, and registers")
    func limitListRemoveRetry() async throws {
        let harness = try EngineHarness { $0.maxDevicesPerUser = 1 }
        let phone = try await harness.registeredService()
        let own = try await phone.registeredDevices()
        #expect(own.count == 1)
        #expect(own.first?.isCurrent == true)
        #expect(own.first?.platform.isEmpty == false)

        // Another device of the same user: its own store, the same world.
        let laptop = RegStateService(configuration: harness.configuration, dependencies: RegStateDependencies(
            store: InMemorySecureStore(), journal: InMemoryJournal(), transport: harness.simulator.transport,
            clock: harness.clock))
        await laptop.start()
        try await harness.signIn(laptop)
        await #expect(throws: RegStateServiceError.registration(.tooManyRegisteredDevices)) {
            _ = try await laptop.confirmRegistration()
        }
        let listed = try await laptop.registeredDevices()
        #expect(listed.map(\.id) == own.map(\.id))
        #expect(listed.first?.isCurrent == false)
        try await laptop.removeDevice(id: try #require(listed.first?.id))
        #expect(await harness.simulator.registeredInstallationCount(for: "alice@example.com") == 0)

        try await laptop.retryRegistration()
        try await harness.signIn(laptop)
        _ = try await laptop.confirmRegistration()
        #expect(try await laptop.registeredDevices().map(\.isCurrent) == [true])
    }

    @Test("without a backend: devices_unsupported, not a crash or an empty list")
    func noBackend() async throws {
        let harness = try EngineHarness()
        var configuration = harness.configuration
        configuration.backendURL = nil
        let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport, clock: harness.clock))
        await #expect(throws: RegStateServiceError.backend(.unexpectedStatus(404, code: "devices_unsupported"))) {
            _ = try await service.registeredDevices()
        }
    }
}
