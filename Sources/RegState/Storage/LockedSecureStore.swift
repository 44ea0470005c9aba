import Foundation

/// A ``SecureStore`` made of an item store and a lock: the Keychain (or a test double) paired with the lock its
/// sharing needs.
///
/// An app and its extensions pair the shared Keychain access group with a ``FileStoreLock`` in their App Group
/// container; a store no other process opens may use a ``ProcessLocalLock``.
public struct LockedSecureStore: SecureStore {
    /// Where the items live.
    public let items: any SecureItemStore
    /// The lock that orders read-modify-writes of the items.
    public let lock: any StoreLock

    /// Pairs `items` with `lock`.
    public init(items: any SecureItemStore, lock: any StoreLock) {
        self.items = items
        self.lock = lock
    }

    /// `items` with a lock inside this process only: for an item store that no other process opens.
    public static func processLocal(_ items: any SecureItemStore) -> LockedSecureStore {
        LockedSecureStore(items: items, lock: ProcessLocalLock())
    }

    /// The item's value, from `items`.
    public func data(forKey key: String) throws(StoreError) -> Data? { try items.data(forKey: key) }
    /// Stores the item in `items`.
    public func set(_ data: Data, forKey key: String) throws(StoreError) { try items.set(data, forKey: key) }
    /// Removes the item from `items`.
    public func removeValue(forKey key: String) throws(StoreError) { try items.removeValue(forKey: key) }
    /// The keys of `items`.
    public func keys() throws(StoreError) -> [String] { try items.keys() }
    /// Takes `lock`.
    ///
    /// - Throws: what `lock` throws (``StoreError/busy(waited:)`` after `timeout`).
    public func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        try await lock.acquire(timeout: timeout)
    }
}
