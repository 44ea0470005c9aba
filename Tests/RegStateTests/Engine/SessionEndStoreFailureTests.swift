import Foundation
import Testing
import RegState
import RegStateTesting

/// A session's end that the store does not let finish: either the credentials are gone, or the call says, typed,
/// that they are not — never a "logged out" with the tokens still stored. The budget world of the simulation found a
/// forced logout that could not take the store's lock (a stalled renewal held it) reporting success, and the next
/// launch came back Active B.
@Suite("A session's end the store does not let finish is reported, typed")
struct SessionEndStoreFailureTests {
    enum End: String, CaseIterable, Sendable { case forcedLogout, logout }
    enum Failure: String, CaseIterable, Sendable { case lockNotTaken, removalRefused }

    /// The store's lock, which refuses to be taken while `failing` (as when another process holds it past the wait).
    final class SwitchableLock: StoreLock, @unchecked Sendable {
        // @unchecked: `failing` is guarded by `guardLock`.
        private let store: InMemorySecureStore
        private let guardLock = NSLock()
        private var refusing = false
        init(store: InMemorySecureStore) { self.store = store }
        var failing: Bool {
            get { guardLock.withLock { refusing } }
            set { guardLock.withLock { refusing = newValue } }
        }
        func acquire(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
            if failing { throw StoreError.busy(waited: timeout) }
            return try await store.acquireExclusiveAccess(timeout: timeout)
        }
    }

    @Test("forced logout and logout, with the store's lock not taken or the removal refused: gone, or typed",
          arguments: End.allCases, Failure.allCases)
    func goneOrTyped(_ end: End, _ failure: Failure) async throws {
        let device = try SimulatedDevice()
        let lock = SwitchableLock(store: device.store)
        let service = RegStateService(configuration: device.configuration, dependencies: RegStateDependencies(
            store: LockedSecureStore(items: device.store, lock: lock), journal: device.journal,
            transport: device.simulator.transport, clock: device.clock, logger: device.logger))
        await service.start()
        try await device.signIn(service)
        try await service.confirmRegistration()
        #expect(try device.store.data(forKey: "credentials") != nil)

        switch failure {
        case .lockNotTaken: lock.failing = true
        case .removalRefused: device.store.failNextWrite(.writeFailed(key: "credentials", reason: "disk full"))
        }
        var thrown: (any Error)?
        do {
            switch end {
            case .forcedLogout: try await service.handleForcedLogout()
            case .logout: _ = try await service.logout()
            }
        } catch {
            thrown = error
        }
        lock.failing = false
        let remain = try device.store.data(forKey: "credentials") != nil
        #expect(remain, "the failure was real: the credentials are still stored")
        guard let error = thrown as? LogoutError else {
            Issue.record("\(end.rawValue) with the credentials left returned \(String(describing: thrown)), not a LogoutError")
            return
        }
        switch (end, failure) {
        case (.logout, .lockNotTaken):
            // Logout takes the lock before it revokes anything: refused, nothing changed.
            #expect(error == .offline(.ssoUnspecifiedIssue))
            #expect(await service.state.session != nil)
        default:
            guard case .credentialsRemain = error else {
                Issue.record("\(end.rawValue): \(error), not credentialsRemain")
                return
            }
            #expect(await service.state.session == nil, "the session ended in memory")
            #expect(error.errorDescription?.contains("could not be removed") == true)
        }
        // The app's way out: clear-state removes them.
        await service.clearState()
        #expect(try device.store.data(forKey: "credentials") == nil)
    }
}
