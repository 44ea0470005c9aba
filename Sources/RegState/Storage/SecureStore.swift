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
}

extension StoreError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .unreadable(let key, let reason): "The stored value '\(key)' cannot be read: \(reason)."
        case .writeFailed(let key, let reason): "The value '\(key)' cannot be stored: \(reason)."
        case .unusableLocation(let path, let reason): "The store at \(path) cannot be used: \(reason)."
        case .invalidKey(let key): "'\(key)' is not a valid store key."
        }
    }
}
