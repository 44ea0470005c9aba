import Foundation

/// A ``SecureStore`` made of an item store and the lock its sharing needs: a ``FileStoreLock`` in the App Group
/// container beside a shared Keychain group, or a ``ProcessLocalLock`` when no other process opens the items.
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
