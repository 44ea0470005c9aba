#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A ``SecureStore`` on the file system, the default on Linux and macOS: one directory (mode 0700), one file per key
/// (mode 0600), every write atomic and durable; processes share it under a `flock` (<doc:ProcessesSharingAStore>).
public final class FileSecureStore: SecureStore {
    /// The directory holding one file per key.
    public var directory: URL { URL(fileURLWithPath: directoryPath, isDirectory: true) }
    /// ``directory``'s path, standardized.
    package let directoryPath: String
    /// The name of the lock file inside the directory (a dot-file: never a key).
    public static let lockFileName = ".lock"
    private let lock: FileStoreLock
    /// The real file system, or a simulated one (RegStateSimulation).
    private let fileSystem: any StorageFileSystem

    /// Opens the store directory at `directory`: created with mode 0700 when missing (its parents with the default
    /// mode), tightened to 0700 when this user's; a crashed writer's temporary files are removed.
    ///
    /// - Throws: ``StoreError/unusableLocation(path:reason:)``: not a directory, not creatable, not writable, not ours.
    public convenience init(directory: URL) throws(StoreError) {
        try self.init(directoryPath: directory.path, fileSystem: PosixFileSystem())
    }

    /// Opens the store at the directory `path` (standardized as ``init(directory:)`` does) on `fileSystem`.
    package init(directoryPath given: String, fileSystem fs: any StorageFileSystem) throws(StoreError) {
        let path = PlainPath.standardized(given)
        self.directoryPath = path
        self.fileSystem = fs
        self.lock = FileStoreLock(path: PlainPath.appending(Self.lockFileName, to: path), fileSystem: fs)
        var refusal: String?
        do {
            refusal = try Self.refusalToPrepare(path, fs)
            // Another process may be writing right now: only the holder of the lock may call a temporary file stale.
            if refusal == nil, let held = try FileLock.take(lock.path, fileSystem: fs) {
                defer { held.unlock() }
                try AtomicFile.removeStaleTemporaryFiles(in: path, fileSystem: fs)
            }
        } catch {
            refusal = error.reason
        }
        if let refusal { throw .unusableLocation(path: path, reason: refusal) }
    }

    /// The value stored under `key`, or `nil` when there is none.
    ///
    /// - Throws: ``StoreError/invalidKey(_:)``; ``StoreError/unreadable(key:reason:)`` (a directory in its place).
    public func data(forKey key: String) throws(StoreError) -> Data? {
        try StoreKey.validate(key)
        do {
            return try AtomicFile.contents(of: filePath(for: key), fileSystem: fileSystem)
        } catch {
            throw .unreadable(key: key, reason: error.reason)
        }
    }

    /// Stores `data` under `key`, atomically replacing any previous value.
    ///
    /// - Throws: ``StoreError/invalidKey(_:)``, ``StoreError/writeFailed(key:reason:)`` (the old value is intact).
    public func set(_ data: Data, forKey key: String) throws(StoreError) {
        try StoreKey.validate(key)
        do {
            try AtomicFile.write(data, to: filePath(for: key), mode: 0o600, fileSystem: fileSystem)
        } catch {
            throw .writeFailed(key: key, reason: error.reason)
        }
    }

    /// Removes the value under `key` durably; removing a missing key is not an error.
    public func removeValue(forKey key: String) throws(StoreError) {
        try StoreKey.validate(key)
        do {
            // The directory is synced even when the file was already gone: its absence may be another process's
            // unlink that the process died before syncing, and a removal that returns must be on disk.
            try fileSystem.unlink(filePath(for: key))
            try fileSystem.syncDirectory(directoryPath)
        } catch {
            throw .writeFailed(key: key, reason: error.reason)
        }
    }

    /// The keys that hold a value, sorted: every entry named as a valid key (dot-files are not), whatever its type,
    /// so that a caller removing every key fails on one it cannot remove instead of leaving it behind.
    ///
    /// - Throws: ``StoreError/unreadable(key:reason:)`` (with an empty key) when the directory cannot be listed.
    public func keys() throws(StoreError) -> [String] {
        do {
            return try fileSystem.directoryEntries(directoryPath).filter(StoreKey.isValid).sorted()
        } catch {
            throw .unreadable(key: "", reason: error.reason)
        }
    }

    /// Takes the store's lock between processes, ``FileStoreLock/acquire(timeout:)`` on ``lockFileName``.
    ///
    /// - Throws: ``StoreError/busy(waited:)`` after `timeout`; ``StoreError/unusableLocation(path:reason:)``.
    public func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        try await lock.acquire(timeout: timeout)
    }

    /// The file that holds `key` (already validated).
    private func filePath(for key: String) -> String {
        PlainPath.appending(key, to: directoryPath)
    }

    /// Creates the directory or checks and tightens the existing one: why it cannot be used, or `nil`.
    private static func refusalToPrepare(_ path: String, _ fs: any StorageFileSystem) throws(SystemCallError) -> String? {
        if let info = try fs.status(path) {
            guard POSIX.isDirectory(info) else { return "it is not a directory" }
            guard info.st_uid == fs.effectiveUserID() else { return "it belongs to another user" }
            if POSIX.permissions(info) != 0o700 { try fs.changeMode(path, 0o700) }
        } else {
            let parent = PlainPath.parent(of: path)
            if try fs.status(parent) == nil {
                do {
                    try fs.createDirectories(parent)
                } catch {
                    return "its parent cannot be created: \(error.reason)"
                }
            }
            do {
                try fs.makeDirectory(path, 0o700)
            } catch where error.code == EEXIST {
                // Created by someone else in the meantime: check it like an existing one.
                return try refusalToPrepare(path, fs)
            }
            try fs.changeMode(path, 0o700)
            try fs.syncDirectory(parent)
        }
        try fs.access(path, R_OK | W_OK | X_OK)
        return nil
    }
}
