import Foundation

/// A held exclusive lock on a ``SecureStore``, from ``SecureStore/acquireExclusiveAccess(timeout:)`` or
/// ``StoreLock/acquire(timeout:)``.
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
