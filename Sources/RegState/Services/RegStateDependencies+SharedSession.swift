#if canImport(Security) || REGSTATE_APPLE_TYPECHECK
import Foundation

extension RegStateDependencies {
    /// The name of the folder RegState keeps in the App Group container (journal, lock file).
    public static let sharedSessionFolder = "RegState"

    /// Dependencies for a session that an app and its extensions share (Apple platforms): Keychain items in a shared
    /// access group; in the App Group's container the journal and the lock file every process takes around a renewal.
    /// The same three names in every process: <doc:SharingASessionWithAppExtensions> (entitlements, accessibility).
    ///
    /// - Parameters:
    ///   - appGroup: the App Group identifier (`"group.com.example.app"`).
    ///   - keychainAccessGroup: the shared Keychain access group, team prefix included.
    ///   - service: the items' `kSecAttrService` (the same in every process).
    ///   - accessibility: when the items can be read.
    ///   - policy: ``KeychainAccessPolicy/userPresence`` to ask for biometry or the passcode before each read.
    ///   - transport: how HTTP requests are sent.
    /// - Throws: ``StoreError/unusableLocation(path:reason:)`` when the App Group has no container (the entitlement
    ///   is missing or names another group); ``StoreError`` or ``JournalError`` when the folder cannot be used.
    public static func sharedSession(appGroup: String, keychainAccessGroup: String, service: String,
                                     accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
                                     policy: KeychainAccessPolicy = .none,
                                     transport: any HTTPTransport = URLSessionTransport()) throws -> RegStateDependencies {
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup) else {
            throw StoreError.unusableLocation(
                path: appGroup, reason: "the App Group has no container (check the application-groups entitlement)")
        }
        let folder = container.appendingPathComponent(sharedSessionFolder, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.unusableLocation(path: folder.path, reason: error.localizedDescription)
        }
        let items = KeychainSecureStore(service: service, accessGroup: keychainAccessGroup,
                                        accessibility: accessibility, policy: policy)
        let store = LockedSecureStore(items: items, lock: FileStoreLock(url: folder.appendingPathComponent(".lock")))
        let journal = try FileJournal(url: folder.appendingPathComponent("journal.log"))
        return RegStateDependencies(store: store, journal: journal, transport: transport,
                                    crypto: SystemCrypto(p256Keys: .secureEnclaveWhenAvailable))
    }
}
#endif
