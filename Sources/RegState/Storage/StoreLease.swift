import Foundation

/// A held exclusive lock on a ``SecureStore``: every read-modify-write of the credentials that can race a renewal runs
/// while holding it, so processes that share one store renew a token once (<doc:ProcessesSharingAStore>).
public protocol StoreLease: Sendable {
    /// Releases the lock. Calling it twice is harmless.
    func release()
}

/// The default wait for a store's lock: one HTTP round trip of another process's refresh grant; a stuck holder then
/// costs the caller a recoverable ``StoreError/busy(waited:)``, never the session.
public let defaultStoreLockTimeout: TimeInterval = 30
