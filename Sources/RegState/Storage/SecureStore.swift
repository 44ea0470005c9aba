import Foundation

/// Where token material lives: a small key–value store that keeps secrets at rest.
///
/// Implementations: ``FileSecureStore`` (Linux and macOS: one directory, mode 0700, files 0600, atomic writes),
/// `InMemorySecureStore` (tests, previews; in the RegStateTesting product) and `KeychainSecureStore` on Apple platforms
/// (not compiled on Linux).
/// Every write is all-or-nothing: after a crash a key holds its old value or its new one, never a torn one.
public protocol SecureStore: Sendable {
    /// The value stored under `key`, or `nil` when there is none.
    ///
    /// - Throws: ``StoreError`` when the value exists but cannot be read.
    func data(forKey key: String) throws -> Data?
    /// Stores `data` under `key`, replacing any previous value atomically.
    ///
    /// - Throws: ``StoreError/writeFailed(key:reason:)``.
    func set(_ data: Data, forKey key: String) throws
    /// Removes the value under `key`; removing a missing key is not an error.
    ///
    /// - Throws: ``StoreError/writeFailed(key:reason:)``.
    func removeValue(forKey key: String) throws
    /// The keys that currently hold a value, sorted.
    ///
    /// - Throws: ``StoreError/unreadable(key:reason:)`` when the store itself cannot be listed.
    func keys() throws -> [String]
    /// Takes the store's exclusive lock, waiting at most `timeout` seconds; the lock is held until the lease is
    /// released. A store that several processes share (``FileSecureStore``) makes it a lock between processes that
    /// the kernel releases when a holder dies; the default is a lock within this process.
    ///
    /// - Throws: ``StoreError/busy(waited:)`` when another holder keeps it longer than `timeout` (recoverable).
    func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease
}

extension SecureStore {
    /// Removes every key, returning the keys it removed (sorted).
    ///
    /// - Throws: ``StoreError`` from listing or removing.
    @discardableResult
    public func removeAll() throws -> [String] {
        let all = try keys()
        for key in all { try removeValue(forKey: key) }
        return all
    }
}

/// Why the secure store failed. No case ever carries the stored value.
public enum StoreError: Error, Sendable, Equatable {
    /// The value under `key` exists but could not be read.
    case unreadable(key: String, reason: String)
    /// The value under `key` could not be written or removed.
    case writeFailed(key: String, reason: String)
    /// The store's location cannot be used (missing, not a directory, wrong permissions, not writable).
    case unusableLocation(path: String, reason: String)
    /// A key that the store cannot hold (empty, a path separator, a leading dot).
    case invalidKey(String)
    /// The store's lock was held by someone else (another process sharing the store) for `waited` seconds.
    /// Recoverable: nothing was changed, and a later attempt may succeed.
    case busy(waited: TimeInterval)
}

extension StoreError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .unreadable(let key, let reason): "The stored value '\(key)' cannot be read: \(reason)."
        case .writeFailed(let key, let reason): "The value '\(key)' cannot be stored: \(reason)."
        case .unusableLocation(let path, let reason): "The store at \(path) cannot be used: \(reason)."
        case .invalidKey(let key): "'\(key)' is not a valid store key."
        case .busy(let waited): "The store is in use by another process (waited \(Int(waited)) s)."
        }
    }
}
