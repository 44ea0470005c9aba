#if canImport(Security) || REGSTATE_APPLE_TYPECHECK
import Foundation
#if canImport(Security)
import Security
#endif

/// A ``SecureItemStore`` over the data-protection Keychain (Apple platforms): one generic-password item per key, in
/// the app's access group, never synchronised; pair it with a lock in a ``LockedSecureStore``. Its queries, and what
/// a locked device does: <doc:SharingASessionWithAppExtensions>.
public final class KeychainSecureStore: SecureItemStore {
    /// The `kSecAttrService` of every item.
    public let service: String
    /// The `kSecAttrAccessGroup` of every item (with its team prefix), or `nil` for the app's default group (then
    /// extensions cannot read the items).
    public let accessGroup: String?
    /// When the items can be read.
    public let accessibility: KeychainAccessibility
    /// Whether reading an item asks for the user.
    public let policy: KeychainAccessPolicy

    /// A store whose items carry `service` (use your bundle identifier plus a suffix), in `accessGroup`.
    ///
    /// - Parameters:
    ///   - service: the items' `kSecAttrService`.
    ///   - accessGroup: a group of the `keychain-access-groups` entitlement, team prefix included
    ///     (`"ABCDE12345.com.example.shared"`); `nil` for the app's own.
    ///   - accessibility: when items can be read; the default works in the background on a locked device.
    ///   - policy: ``KeychainAccessPolicy/userPresence`` to require biometry or the passcode for each read.
    public init(service: String, accessGroup: String? = nil,
                accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
                policy: KeychainAccessPolicy = .none) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.policy = policy
    }

    /// The item's data, or `nil` when there is none.
    ///
    /// - Throws: ``StoreError``: invalid key, locked device, cancelled prompt, or `unreadable` for any other status.
    public func data(forKey key: String) throws(StoreError) -> Data? {
        try StoreKey.validate(key)
        var query = query(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try Self.check(status, key: key) { .unreadable(key: key, reason: "Keychain status \(status)") }
        guard let data = result as? Data else { throw StoreError.unreadable(key: key, reason: "not data") }
        return data
    }

    /// Updates the item, or adds it when missing; the item's protection is set when it is added.
    ///
    /// - Throws: ``StoreError``: those of ``data(forKey:)``, with `writeFailed` for any other status.
    public func set(_ data: Data, forKey key: String) throws(StoreError) {
        try StoreKey.validate(key)
        let update: [String: Any] = [kSecValueData as String: data]
        var status = SecItemUpdate(query(key) as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var add = query(key)
            add[kSecValueData as String] = data
            try add.merge(protection(key)) { $1 }
            status = SecItemAdd(add as CFDictionary, nil)
        }
        try Self.check(status, key: key) { .writeFailed(key: key, reason: "Keychain status \(status)") }
    }

    /// Deletes the item; a missing item is not an error.
    ///
    /// - Throws: ``StoreError/invalidKey(_:)``; the recoverable errors; ``StoreError/writeFailed(key:reason:)``.
    public func removeValue(forKey key: String) throws(StoreError) {
        try StoreKey.validate(key)
        let status = SecItemDelete(query(key) as CFDictionary)
        if status == errSecItemNotFound { return }
        try Self.check(status, key: key) { .writeFailed(key: key, reason: "Keychain status \(status)") }
    }

    /// The accounts of this service's items, sorted (attributes only: no item data is read, so no prompt).
    ///
    /// - Throws: the recoverable errors, or ``StoreError/unreadable(key:reason:)`` with an empty key.
    public func keys() throws(StoreError) -> [String] {
        var query = baseQuery()
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        try Self.check(status, key: "") { .unreadable(key: "", reason: "Keychain status \(status)") }
        guard let items = result as? [[String: Any]] else { throw StoreError.unreadable(key: "", reason: "not a list") }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    /// What every query names: the class, the service, the access group, the data-protection keychain, and items
    /// that are not synchronised (a synchronisable item of the same name is never read or changed).
    private func baseQuery() -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: service,
                                    kSecUseDataProtectionKeychain as String: true,
                                    kSecAttrSynchronizable as String: false]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private func query(_ key: String) -> [String: Any] {
        var query = baseQuery()
        query[kSecAttrAccount as String] = key
        return query
    }

    /// The protection of a new item: the accessibility class, inside an access control when a policy asks for the
    /// user (`kSecAttrAccessControl` carries the class then; the two attributes are never set together).
    private func protection(_ key: String) throws(StoreError) -> [String: Any] {
        switch policy {
        case .none:
            return [kSecAttrAccessible as String: accessibleAttribute]
        case .userPresence:
            guard let control = SecAccessControlCreateWithFlags(nil, accessibleAttribute, .userPresence, nil) else {
                throw StoreError.writeFailed(key: key, reason: "no access control")
            }
            return [kSecAttrAccessControl as String: control]
        }
    }

    /// The `kSecAttrAccessible` value of ``accessibility``.
    private var accessibleAttribute: CFString {
        switch accessibility {
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }

    /// Maps a status other than success to a typed error: the recoverable ones by name, the rest by `otherwise`.
    private static func check(_ status: OSStatus, key: String, otherwise: () -> StoreError) throws(StoreError) {
        switch status {
        case errSecSuccess: return
        case errSecInteractionNotAllowed: throw .interactionNotAllowed(key: key)
        case errSecUserCanceled: throw .userCanceled(key: key)
        default: throw otherwise()
        }
    }
}
#endif
