import Foundation

/// A held exclusive lock on a ``SecureStore``, from ``SecureStore/acquireExclusiveAccess(timeout:)``.
///
/// Every read-modify-write of the credentials that can race a renewal (renewal itself, confirm, logout,
/// clear-state) runs while holding it, so processes that share one store renew a token once.
public protocol StoreLease: Sendable {
    /// Releases the lock. Calling it twice is harmless.
    func release()
}

/// The default wait for a store's lock: long enough for another process's refresh grant (one HTTP round trip),
/// short enough that a stuck holder never blocks the app: the caller then gets ``StoreError/busy(waited:)``, a
/// recoverable error (the session is kept; a later attempt may succeed).
public let defaultStoreLockTimeout: TimeInterval = 30

/// A lock shared by the tasks and threads of one process, with a bounded wait. In-memory stores (RegStateTesting's
/// `InMemorySecureStore`) use it as their whole lock; ``FileSecureStore`` takes it before its lock file, so two tasks of one process never
/// contend on the file lock.
public final class ProcessLocalLock: Sendable {
    private let held = LockedFlag()
    /// Where the waits' clock and pauses come from (a simulated world drives them under test).
    private let fileSystem: any StorageFileSystem

    /// Creates an unheld lock.
    public convenience init() { self.init(fileSystem: PosixFileSystem()) }

    /// Creates an unheld lock whose waits use `fileSystem`'s clock and pauses.
    package init(fileSystem: any StorageFileSystem) { self.fileSystem = fileSystem }

    /// Takes the lock, waiting at most `timeout` seconds.
    ///
    /// - Throws: ``StoreError/busy(waited:)`` when it is still held after `timeout` (or the task is cancelled).
    public func acquire(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        let deadline = fileSystem.now() + timeout
        while !held.take() {
            if fileSystem.now() >= deadline || Task.isCancelled { throw StoreError.busy(waited: timeout) }
            await fileSystem.pause(nanoseconds: 2_000_000)
        }
        return Lease(flag: held)
    }

    private final class Lease: StoreLease {
        let flag: LockedFlag
        let released = LockedFlag()
        init(flag: LockedFlag) { self.flag = flag }
        func release() { if released.take() { flag.clear() } }
    }
}

/// A Boolean behind an `NSLock`.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// Sets the flag; `true` when it was clear (the caller now owns it).
    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if value { return false }
        value = true
        return true
    }

    /// Clears the flag.
    func clear() {
        lock.lock()
        value = false
        lock.unlock()
    }
}

/// The lock of stores that bring none of their own: one per process, shared by them all (coarse but safe).
let processWideStoreLock = ProcessLocalLock()

extension SecureStore {
    /// Takes the one lock of this process, shared by every store that has no lock of its own (for example a
    /// Keychain store): enough within a process; a store shared between processes implements its own.
    public func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        try await processWideStoreLock.acquire(timeout: timeout)
    }
}
