import Foundation

/// A key–value store for secrets at rest, without a lock of its own (the Keychain, a test double); pair it with a
/// ``StoreLock`` in a ``LockedSecureStore``. Each write is all-or-nothing per key (the engine keeps one record).
public protocol SecureItemStore: Sendable {
    /// The value stored under `key`, or `nil` when there is none.
    ///
    /// - Throws: ``StoreError`` when the value exists but cannot be read (recoverable on a locked device).
    func data(forKey key: String) throws(StoreError) -> Data?
    /// Stores `data` under `key`, replacing any previous value atomically.
    ///
    /// - Throws: ``StoreError/writeFailed(key:reason:)``, or a recoverable ``StoreError``.
    func set(_ data: Data, forKey key: String) throws(StoreError)
    /// Removes the value under `key`; removing a missing key is not an error.
    ///
    /// - Throws: ``StoreError/writeFailed(key:reason:)``, or a recoverable ``StoreError``.
    func removeValue(forKey key: String) throws(StoreError)
    /// The keys that currently hold a value, sorted.
    ///
    /// - Throws: ``StoreError/unreadable(key:reason:)`` when the store itself cannot be listed.
    func keys() throws(StoreError) -> [String]
}
