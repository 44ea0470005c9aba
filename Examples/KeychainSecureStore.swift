#if canImport(Security)
import Foundation
import RegState
import Security

/// A `SecureStore` over the Keychain: one generic-password item per key, this device only, available after the
/// first unlock so background renewals work. Each `SecItemUpdate`/`SecItemAdd` is atomic, as the protocol requires.
final class KeychainSecureStore: SecureStore {
    private let service: String

    init(service: String = "com.example.app.regstate") {
        self.service = service
    }

    private func query(_ key: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword,
         kSecAttrService as String: service,
         kSecAttrAccount as String: key]
    }

    func data(forKey key: String) throws -> Data? {
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

    func set(_ data: Data, forKey key: String) throws {
        let attributes: [String: Any] = [kSecValueData as String: data,
                                         kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
        var status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(query(key).merging(attributes) { $1 } as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw StoreError.writeFailed(key: key, reason: "Keychain status \(status)") }
    }

    func removeValue(forKey key: String) throws {
        let status = SecItemDelete(query(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw StoreError.writeFailed(key: key, reason: "Keychain status \(status)")
        }
    }

    func keys() throws -> [String] {
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
