import Foundation

/// Where token material lives, with the lock that orders its read-modify-writes: a ``SecureItemStore`` plus
/// ``acquireExclusiveAccess(timeout:)``.
///
/// Implementations: ``FileSecureStore``, `InMemorySecureStore` (RegStateTesting) and ``LockedSecureStore``, which
/// pairs any item store with any ``StoreLock``. There is no default lock: a shared store with a lock inside one
/// process is exactly the race (two processes renewing one rotating refresh token) the lock exists to prevent.
public protocol SecureStore: SecureItemStore {
    /// Takes the store's exclusive lock, waiting at most `timeout` seconds; it is held until the lease is released.
    ///
    /// - Throws: ``StoreError/busy(waited:)`` when another holder keeps it longer than `timeout` (recoverable).
    func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease
}
