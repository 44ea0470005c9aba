#if canImport(Security)
import Foundation
import Security

/// A ``SecureStore`` over the Keychain (Apple platforms only): one generic-password item per key, this device only,
/// available after the first unlock so background renewals work. Each `SecItemUpdate`/`SecItemAdd` is atomic, as the
/// protocol requires. ``RegStateDependencies/standard(at:keychainService:transport:)`` picks it on Apple platforms.
///
/// Not compiled or tested on Linux (the project's CI is Linux-only); the store contract it follows is the one
/// ``FileSecureStore`` and `InMemorySecureStore` are tested against.
public final class KeychainSecureStore: SecureStore {
    private let service: String

    /// A store whose items carry `service` (use your bundle identifier plus a suffix).
    public init(service: String) {
        self.service = service
    }

    private func query(_ key: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword,
         kSecAttrService as String: service,
         kSecAttrAccount as String: key]
    }

    /// The item's data, or `nil` when there is none.
    public func data(forKey key: String) throws -> Data? {
        var query = query(key)
        query[kSecReturnData as String] = true
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else {
            throw StoreError.unreadable(key: key, reason: "Keychain status \(status)")
        }
        return data
    }

    /// Updates the item, or adds it when missing.
    public func set(_ data: Data, forKey key: String) throws {
        let attributes: [String: Any] = [kSecValueData as String: data,
                                         kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
        var status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(query(key).merging(attributes) { $1 } as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw StoreError.writeFailed(key: key, reason: "Keychain status \(status)") }
    }

    /// Deletes the item; a missing item is not an error.
    public func removeValue(forKey key: String) throws {
        let status = SecItemDelete(query(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw StoreError.writeFailed(key: key, reason: "Keychain status \(status)")
        }
    }

    /// The accounts of this service's items, sorted.
    public func keys() throws -> [String] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: service,
                                    kSecReturnAttributes as String: true,
                                    kSecMatchLimit as String: kSecMatchLimitAll]
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else {
            throw StoreError.unreadable(key: "", reason: "Keychain status \(status)")
        }
        query.removeAll()
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }
}
#endif
