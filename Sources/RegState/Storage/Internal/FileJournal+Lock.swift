#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension FileJournal {
    /// Runs `body` with the journal opened with `flags` under the file's `flock` and this instance's lock, taken
    /// again on the new file when a compaction renamed one over it; throws `failure` with the system's reason.
    func withLockedFile<T>(
        _ flags: Int32, failure: (String) -> JournalError, _ body: (Int32) throws(SystemCallError) -> T
    ) throws(JournalError) -> T {
        lock.lock()
        defer { lock.unlock() }
        let fs = fileSystem
        let deadline = fs.now() + Self.lockTimeout
        do {
            while true {
                let fd = try fs.open(path, flags | O_CLOEXEC, mode: 0o600)
                defer { try? fs.close(fd) }
                try Self.takeLock(fd, until: deadline, fs)
                guard let current = try fs.status(path), try POSIX.sameFile(fs.status(fd), current) else {
                    continue
                }
                try makeNameDurable(current)
                return try body(fd)
            }
        } catch {
            throw failure(error.reason)
        }
    }

    /// Syncs the journal's directory the first time this instance sees the file `current` names: a dead compactor's
    /// rename may not be durable yet (docs/Internals-Storage.md, `FileJournal.makeNameDurable`).
    private func makeNameDurable(_ current: stat) throws(SystemCallError) {
        let identity = [UInt64(current.st_dev), UInt64(current.st_ino)]
        guard syncedFile.withLock({ $0 != identity }) else { return }
        try fileSystem.syncDirectory(PlainPath.parent(of: path))
        syncedFile.withLock { $0 = identity }
    }

    /// Takes an exclusive `flock` on `fd`, retrying every millisecond until `deadline`.
    private static func takeLock(
        _ fd: Int32, until deadline: TimeInterval, _ fs: any StorageFileSystem
    ) throws(SystemCallError) {
        while try !fs.lockExclusive(fd, wait: false) {
            if fs.now() >= deadline {
                throw SystemCallError("flock", message: "another process held the journal for \(Int(lockTimeout)) s")
            }
            fs.pauseBlocking(microseconds: 1_000)
        }
    }
}
