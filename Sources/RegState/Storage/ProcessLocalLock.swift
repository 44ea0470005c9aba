import Foundation

/// A lock shared by the tasks and threads of one process, with a bounded wait: the whole lock of a store no other
/// process opens, and the first half of ``FileStoreLock`` (two tasks of one process never contend on the lock file).
public final class ProcessLocalLock: StoreLock {
    private let held = LockedValue(false)
    /// Where the waits' clock and pauses come from.
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
        while !held.withLock(Self.take) {
            if fileSystem.now() >= deadline || Task.isCancelled { throw StoreError.busy(waited: timeout) }
            await fileSystem.pause(nanoseconds: 2_000_000)
        }
        return OnceLease { [held] in held.withLock { $0 = false } }
    }

    private static func take(_ held: inout Bool) -> Bool {
        if held { return false }
        held = true
        return true
    }
}
