#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState

/// A ``SecureItemStore`` that behaves as Apple's Keychain does for RegState, on any platform: items shared between
/// processes, each written atomically on its own, and nothing more — no lock, no promise about several items
/// together, no `fsync` (the Keychain's durability is its own) — plus a locked device on demand.
///
/// Each item is one file in ``directory`` named after its key, replaced by `rename(2)` from a dot-file (so readers
/// in other processes see the old value or the new one). While ``isDeviceLocked`` (a flag file every process sees),
/// every call fails with ``StoreError/interactionNotAllowed(key:)``, as `errSecInteractionNotAllowed` does before the
/// first unlock. Pair it with the App Group lock, a ``FileStoreLock``, in a ``LockedSecureStore`` (``shared(in:)``):
/// what `RegStateDependencies.sharedSession` builds on Apple platforms, with this double in the Keychain's place.
public final class KeychainDouble: SecureItemStore {
    /// The folder of item files (one per key).
    public let directory: URL
    /// The flag file that stands for a locked device.
    private var lockedFlag: URL { directory.appendingPathComponent(".device-locked") }

    /// Opens (creating if missing, mode 0700) the items in `directory`.
    ///
    /// - Throws: ``StoreError/unusableLocation(path:reason:)``.
    public init(directory: URL) throws(StoreError) {
        self.directory = directory.standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unusableLocation(path: self.directory.path, reason: "cannot be created")
        }
    }

    /// The double in `container/keychain` paired with the App Group lock `container/.lock`: a store processes share
    /// as an app and its extensions share the Keychain and their App Group container.
    ///
    /// - Throws: ``StoreError/unusableLocation(path:reason:)``.
    public static func shared(in container: URL) throws(StoreError) -> LockedSecureStore {
        let items = try KeychainDouble(directory: container.appendingPathComponent("keychain", isDirectory: true))
        return LockedSecureStore(items: items, lock: FileStoreLock(url: container.appendingPathComponent(".lock")))
    }

    /// Whether the device is locked for every process using this folder.
    public var isDeviceLocked: Bool { FileManager.default.fileExists(atPath: lockedFlag.path) }

    /// Locks or unlocks the device (for every process using this folder).
    ///
    /// - Throws: a file-system error when the flag cannot be written or removed.
    public func setDeviceLocked(_ locked: Bool) throws {
        if locked {
            try Data().write(to: lockedFlag)
        } else if isDeviceLocked {
            try FileManager.default.removeItem(at: lockedFlag)
        }
    }

    /// The item's bytes, or `nil` when there is none.
    ///
    /// - Throws: ``StoreError/invalidKey(_:)``, ``StoreError/interactionNotAllowed(key:)`` while locked,
    ///   ``StoreError/unreadable(key:reason:)``.
    public func data(forKey key: String) throws(StoreError) -> Data? {
        try StoreKey.validate(key)
        try refuseWhileLocked(key)
        let url = directory.appendingPathComponent(key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try Data(contentsOf: url)
        } catch {
            // Removed between the check and the read by another process: there is none.
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw .unreadable(key: key, reason: "the item cannot be read")
        }
    }

    /// Replaces the item atomically (a dot-file renamed over it; no `fsync`).
    ///
    /// - Throws: ``StoreError/invalidKey(_:)``, ``StoreError/interactionNotAllowed(key:)`` while locked,
    ///   ``StoreError/writeFailed(key:reason:)``.
    public func set(_ data: Data, forKey key: String) throws(StoreError) {
        try StoreKey.validate(key)
        try refuseWhileLocked(key)
        let temporary = directory.appendingPathComponent(".\(key).\(UInt64.random(in: .min ... .max))")
        do {
            try data.write(to: temporary)
        } catch {
            throw .writeFailed(key: key, reason: "the item cannot be written")
        }
        guard rename(temporary.path, directory.appendingPathComponent(key).path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw StoreError.writeFailed(key: key, reason: "the item cannot be replaced")
        }
    }

    /// Removes the item; a missing one is not an error.
    ///
    /// - Throws: ``StoreError/invalidKey(_:)``, ``StoreError/interactionNotAllowed(key:)`` while locked,
    ///   ``StoreError/writeFailed(key:reason:)``.
    public func removeValue(forKey key: String) throws(StoreError) {
        try StoreKey.validate(key)
        try refuseWhileLocked(key)
        guard unlink(directory.appendingPathComponent(key).path) == 0 || errno == ENOENT else {
            throw StoreError.writeFailed(key: key, reason: "the item cannot be removed")
        }
    }

    /// The keys of the items, sorted (dot-files are this double's own).
    ///
    /// - Throws: ``StoreError/interactionNotAllowed(key:)`` while locked, ``StoreError/unreadable(key:reason:)``.
    public func keys() throws(StoreError) -> [String] {
        try refuseWhileLocked("")
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw .unreadable(key: "", reason: "the items cannot be listed")
        }
    }

    private func refuseWhileLocked(_ key: String) throws(StoreError) {
        if isDeviceLocked { throw .interactionNotAllowed(key: key) }
    }
}
