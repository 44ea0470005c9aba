import Foundation

/// The exclusive lock of a store, apart from its items, so any item store can be paired with the lock its sharing
/// needs (``LockedSecureStore``): ``FileStoreLock`` between processes, ``ProcessLocalLock`` in one.
public protocol StoreLock: Sendable {
    /// Takes the lock, waiting at most `timeout` seconds; it is held until the lease is released.
    ///
    /// - Throws: ``StoreError/busy(waited:)`` after `timeout`; ``StoreError/unusableLocation(path:reason:)``.
    func acquire(timeout: TimeInterval) async throws(StoreError) -> any StoreLease
}
