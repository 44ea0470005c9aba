#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension FileJournal {
    /// Opens the journal with `flags`, takes the file's `flock` (and this instance's lock), and runs `body` with the
    /// descriptor. When another process's compaction renamed a new journal over the locked one, the descriptor no
    /// longer names the journal, so the lock is taken again on the new file.
    ///
    /// - Throws: `failure` with the system's reason, or when another process holds the lock for ``lockTimeout``.
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
                // Still the journal? A rename over it while this process waited leaves the old file behind.
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

    /// Syncs the journal's directory the first time this instance sees the file `current` names (at the first call,
    /// and after a compaction renamed a new file over it): the rename of a compaction whose process died before its
    /// directory `fsync` is not durable yet, and an append's `fsync` makes the file's bytes durable, not its name, so
    /// a power loss would bring back the old file and lose every append since (seed 7179832201).
    private func makeNameDurable(_ current: stat) throws(SystemCallError) {
        let identity = [UInt64(current.st_dev), UInt64(current.st_ino)]
        guard syncedFile.withLock({ $0 != identity }) else { return }
        try fileSystem.syncDirectory(PlainPath.parent(of: path))
        syncedFile.withLock { $0 = identity }
    }

    func fileExists() throws(JournalError) -> Bool {
        do {
            return try fileSystem.status(path) != nil
        } catch {
            throw .unreadable(error.reason)
        }
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
