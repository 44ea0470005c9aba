import Foundation
import Testing
@testable import RegState
import RegStateTesting

/// Another client's logout on a device that locks and unlocks between its reads (issue 41, the another-client world
/// on the Keychain disks): the world client's record, which that logout cannot read, is never taken for "none stored".
@Suite("Engine on a locked device: another client's logout")
struct LockedDeviceBindingTests {
    @Test("Given the world client's session and a process built for another client that launched on a locked device (E), when its logout reads the record, the device locks for the reads that say whose record it is and unlocks for the removal, then the world client's record stays and the logout says the credentials remain")
    func otherClientLogoutLeavesTheRecord() async throws {
        let device = try SimulatedDevice()
        _ = try await device.registeredService()
        let record = try #require(try device.store.data(forKey: TokenService.credentialsKey))
        let items = Items(base: device.store)
        var configuration = device.configuration
        configuration.oidc.clientID = "another-client"
        let other = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: LockedSecureStore(items: items, lock: ProcessLocalLock()), journal: InMemoryJournal(),
            transport: device.simulator.transport, clock: device.clock, platform: SystemPlatformService(formFactor: "390x844")))
        items.lockCredentialReads([1])
        guard case .failed(.renewal(.storage)) = await other.start() else {
            Issue.record("a launch on a locked device is not a storage failure: \(await other.state)"); return
        }
        // The logout's own read finds the record (another client's: nothing to revoke); the next two do not.
        items.lockCredentialReads([2, 3])
        do {
            let result = try await other.logout()
            Issue.record("the logout claimed \(result.result) with the record unread")
        } catch {
            #expect(error == .credentialsRemain(.interactionNotAllowed(key: TokenService.credentialsKey)), "got: \(error)")
        }
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == record, "the world client's record stays")
        #expect(await device.launch().start().letter == "B")
    }

    /// Items over `base` on a device that is locked for the reads of the credentials record numbered in the set given
    /// (counted from when it was given), and unlocked for every other call.
    final class Items: SecureItemStore, @unchecked Sendable {
        // @unchecked: `locked` and `reads` are guarded by `lock`.
        private let base: InMemorySecureStore
        private let lock = NSLock()
        private var locked: Set<Int> = []
        private var reads = 0

        init(base: InMemorySecureStore) { self.base = base }

        func lockCredentialReads(_ numbers: Set<Int>) {
            lock.withLock { (locked, reads) = (numbers, 0) }
        }

        func data(forKey key: String) throws(StoreError) -> Data? {
            if key == TokenService.credentialsKey {
                let refused = lock.withLock { () -> Bool in
                    reads += 1
                    return locked.contains(reads)
                }
                if refused { throw .interactionNotAllowed(key: key) }
            }
            return try base.data(forKey: key)
        }

        func set(_ data: Data, forKey key: String) throws(StoreError) { try base.set(data, forKey: key) }
        func removeValue(forKey key: String) throws(StoreError) { try base.removeValue(forKey: key) }
        func keys() throws(StoreError) -> [String] { try base.keys() }
    }
}
