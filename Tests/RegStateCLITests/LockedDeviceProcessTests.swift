import Foundation
import RegStateTestSupport
import RegStateTesting
import Testing

/// `regstate` processes on a locked device (issue 28): RegStateTesting's Keychain double refuses every item call with
/// `interactionNotAllowed`, as the Keychain does before the first unlock. Child processes, not threads.
@Suite("A locked device")
struct LockedDeviceProcessTests {
    @Test("Given an expired token on a locked device, when processes launch, then nothing is sent or removed; once unlocked, one grant renews it")
    func lockedDeviceKeepsTheSession() async throws {
        let device = try CLIScenario(keychain: true)
        try await device.registerSocially()
        try SharedStoreProcessTests.expireStoredAccessToken(in: device)
        let items = try KeychainDouble(directory: device.store.appendingPathComponent("keychain"))
        let keys = try items.keys()
        let values = try keys.map { try items.data(forKey: $0) }
        let grantsBefore = try await SharedStoreProcessTests.refreshGrants(in: device.store)

        try items.setDeviceLocked(true)
        for _ in 0..<2 {
            let locked = try await device.run(["status"])
            #expect(locked.status == 1, "a locked device is an error for now, not a logout: \(locked.stdout) \(locked.stderr)")
            #expect(!locked.stdout.contains("Registration required"), "got: \(locked.stdout)")
        }
        try items.setDeviceLocked(false)
        #expect(try items.keys() == keys)
        #expect(try keys.map { try items.data(forKey: $0) } == values, "nothing was changed while locked")
        #expect(try await SharedStoreProcessTests.refreshGrants(in: device.store) == grantsBefore)

        let unlocked = try await device.run(["status"])
        #expect(unlocked.status == 0, "stderr: \(unlocked.stderr)")
        #expect(unlocked.stdout.contains("State: Active"), "got: \(unlocked.stdout)")
        #expect(try await SharedStoreProcessTests.refreshGrants(in: device.store) == grantsBefore + 1)
        device.expectNoSecretsPrinted()
    }
}
