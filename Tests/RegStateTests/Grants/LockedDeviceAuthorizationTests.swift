import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// The device authorization grant on a locked device (issue 44b, shared-session/device seeds 1320, 1461, 1909): the
/// Keychain refuses the read of the pending authorization (`interactionNotAllowed`), which is never "none pending".
@Suite("Device authorization grant on a locked device")
struct LockedDeviceAuthorizationTests {
    /// A world whose clock moves on by every wait, and services over one Keychain (RegStateTesting's `KeychainDouble`)
    /// with the App Group lock.
    struct LockableWorld {
        let device: SimulatedDevice
        let items: KeychainDouble
        let store: LockedSecureStore

        init(scratch: URL) throws {
            device = try SimulatedDevice(clock: ManualClock(advancesWhileSleeping: true))
            items = try KeychainDouble(directory: scratch.appendingPathComponent("keychain"))
            store = LockedSecureStore(items: items, lock: FileStoreLock(url: scratch.appendingPathComponent(".lock")))
        }

        func launch() -> RegStateService {
            RegStateService(configuration: device.configuration, dependencies: RegStateDependencies(
                store: store, journal: InMemoryJournal(), transport: device.simulator.transport, clock: device.clock,
                logger: device.logger))
        }
    }

    @Test("Given an authorization pending, when another process begins on a locked device, then a storage error, no second authorization, and after the unlock it takes up the pending one")
    func lockedDeviceBeginsNoSecondAuthorization() async throws {
        try await withStorageScratch { (scratch: URL) async throws in
            let world = try LockableWorld(scratch: scratch)
            let first = world.launch()
            #expect(await first.start() == .registrationRequired)
            let shown = try await first.beginDeviceRegistration()
            let second = world.launch()
            #expect(await second.start() == .registrationRequired)
            let stored = try #require(try world.items.data(forKey: PendingDeviceAuthorization.storeKey))

            try world.items.setDeviceLocked(true)
            do {
                let other = try await second.beginDeviceRegistration()
                Issue.record("a locked device began an authorization beside the pending one: \(other == shown ? "the same" : "another")")
            } catch {
                guard case .registration(.storage)? = error as? RegStateServiceError else { Issue.record("not a storage error: \(error)"); return }
            }
            #expect(await world.device.simulator.deviceUserCodes == [shown.userCode], "no second device authorization")
            try world.items.setDeviceLocked(false)
            #expect(try world.items.data(forKey: PendingDeviceAuthorization.storeKey) == stored, "nothing changed")

            #expect(try await second.beginDeviceRegistration() == shown)
            #expect(await world.device.simulator.deviceUserCodes == [shown.userCode])
        }
    }

    @Test("Given an authorization pending, when its poll starts on a locked device, then a storage error (not 'none pending'), the authorization stays, and after the unlock it is approved")
    func lockedDevicePollKeepsAuthorization() async throws {
        try await withStorageScratch { (scratch: URL) async throws in
            let world = try LockableWorld(scratch: scratch)
            let first = world.launch()
            await first.start()
            let shown = try await first.beginDeviceRegistration()
            let stored = try #require(try world.items.data(forKey: PendingDeviceAuthorization.storeKey))

            try world.items.setDeviceLocked(true)
            do {
                _ = try await first.completeDeviceRegistration()
                Issue.record("a poll on a locked device ended with a profile")
            } catch {
                guard case .registration(.storage)? = error as? RegStateServiceError else { Issue.record("not a storage error: \(error)"); return }
            }
            #expect(await world.device.simulator.devicePolls(userCode: shown.userCode).isEmpty, "no poll left")
            try world.items.setDeviceLocked(false)
            #expect(try world.items.data(forKey: PendingDeviceAuthorization.storeKey) == stored, "nothing changed")

            let relaunched = world.launch()
            await relaunched.start()
            #expect(try await relaunched.beginDeviceRegistration() == shown)
            try await world.device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com")
            #expect(try await relaunched.completeDeviceRegistration().email == "dana@example.com")
            #expect(await world.device.simulator.deviceUserCodes == [shown.userCode])
        }
    }
}
