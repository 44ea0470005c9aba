import Foundation

/// Where token material lives, with the lock that orders its read-modify-writes. There is no default lock: a shared
/// store locked inside one process is the race (two processes, one rotating refresh token) the lock prevents.
public protocol SecureStore: SecureItemStore {
    /// Takes the store's exclusive lock, waiting at most `timeout` seconds; it is held until the lease is released.
    ///
    /// - Throws: ``StoreError/busy(waited:)`` when another holder keeps it longer than `timeout` (recoverable).
    func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease
}
