import Foundation

/// The exclusive lock of a store, separate from where its items live, so that any item store can be paired with
/// the lock its sharing needs (``LockedSecureStore``).
///
/// Implementations: ``FileStoreLock`` (a `flock(2)` on a file, between processes — an app and its extensions in an
/// App Group container — released by the kernel when a holder dies) and ``ProcessLocalLock`` (the tasks of one
/// process, for a store no other process opens).
public protocol StoreLock: Sendable {
    /// Takes the lock, waiting at most `timeout` seconds; it is held until the lease is released.
    ///
    /// - Throws: ``StoreError/busy(waited:)`` when another holder keeps it longer than `timeout` (recoverable), or
    ///   ``StoreError/unusableLocation(path:reason:)`` when the lock cannot be used at all.
    func acquire(timeout: TimeInterval) async throws(StoreError) -> any StoreLease
}
