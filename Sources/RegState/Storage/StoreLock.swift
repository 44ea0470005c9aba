import Foundation

/// The exclusive lock of a store, separate from where its items live, so that any item store can be paired with
/// the lock its sharing needs (``LockedSecureStore``).
///
/// Implementations: ``FileStoreLock`` (between processes) and ``ProcessLocalLock`` (one process only).
public protocol StoreLock: Sendable {
    /// Takes the lock, waiting at most `timeout` seconds; it is held until the lease is released.
    ///
    /// - Throws: ``StoreError/busy(waited:)`` when another holder keeps it longer than `timeout` (recoverable), or
    ///   ``StoreError/unusableLocation(path:reason:)`` when the lock cannot be used at all.
    func acquire(timeout: TimeInterval) async throws(StoreError) -> any StoreLease
}
