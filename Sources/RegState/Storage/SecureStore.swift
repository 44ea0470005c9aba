import Foundation

/// Where token material lives, with the lock that orders its read-modify-writes: a ``SecureItemStore`` plus
/// ``acquireExclusiveAccess(timeout:)``.
///
/// Implementations: ``FileSecureStore`` (Linux and macOS: one directory, mode 0700, files 0600, atomic writes, a
/// `flock` lock file between processes), `InMemorySecureStore` (tests, previews; in the RegStateTesting product) and
/// ``LockedSecureStore``, which pairs any item store (the Keychain on Apple platforms, a test double) with any
/// ``StoreLock`` (``FileStoreLock`` for a store that processes share, ``ProcessLocalLock`` for one they do not).
/// There is no default lock: a store shared between processes with a lock inside one process is exactly the race
/// (two processes renewing one rotating refresh token) the lock exists to prevent, so every store names its lock.
public protocol SecureStore: SecureItemStore {
    /// Takes the store's exclusive lock, waiting at most `timeout` seconds; the lock is held until the lease is
    /// released. A store that several processes share makes it a lock between processes that the kernel releases
    /// when a holder dies (``FileStoreLock``).
    ///
    /// - Throws: ``StoreError/busy(waited:)`` when another holder keeps it longer than `timeout` (recoverable).
    func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease
}
