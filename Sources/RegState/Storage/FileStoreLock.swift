#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A lock between processes: an advisory `flock(2)` on one lock file, which the kernel releases when a holder's
/// process dies, so a crashed holder never blocks the others (<doc:ProcessesSharingAStore>).
public final class FileStoreLock: StoreLock {
    /// The lock file.
    public let path: String
    private let local: ProcessLocalLock
    private let fileSystem: any StorageFileSystem

    /// A lock on the file at `url` (created when missing; its directory must exist).
    public convenience init(url: URL) {
        self.init(path: url.standardizedFileURL.path, fileSystem: PosixFileSystem())
    }

    /// A lock on the file at `path` on `fileSystem`.
    package init(path: String, fileSystem: any StorageFileSystem) {
        self.path = path
        self.fileSystem = fileSystem
        self.local = ProcessLocalLock(fileSystem: fileSystem)
    }

    /// Takes this process's own lock, then `flock` on ``path``, trying again every few milliseconds until `timeout`.
    ///
    /// - Throws: ``StoreError/busy(waited:)`` after `timeout`; ``StoreError/unusableLocation(path:reason:)``.
    public func acquire(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        let fs = fileSystem
        let deadline = fs.now() + timeout
        let local = try await self.local.acquire(timeout: timeout)
        while true {
            do {
                if let file = try FileLock.take(path, fileSystem: fs) {
                    return OnceLease {
                        file.unlock()
                        local.release()
                    }
                }
            } catch {
                local.release()
                throw StoreError.unusableLocation(path: path, reason: error.reason)
            }
            if fs.now() >= deadline || Task.isCancelled {
                local.release()
                throw StoreError.busy(waited: timeout)
            }
            await fs.pause(nanoseconds: 5_000_000)
        }
    }
}
