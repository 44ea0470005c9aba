#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An advisory `flock(2)` on a lock file, exclusive between descriptors, released by `unlock()` or by the kernel
/// when the holder's descriptor closes: a process that dies holding it never blocks the others.
package final class FileLock: Sendable {
    private let fd: Int32
    private let fileSystem: any StorageFileSystem

    private init(fd: Int32, fileSystem: any StorageFileSystem) {
        self.fd = fd
        self.fileSystem = fileSystem
    }

    /// Takes the lock on `path` (created with mode 0600 when missing); `nil` when another descriptor holds it, unless
    /// `waiting` (short critical sections only: the simulator's request transaction).
    package static func take(
        _ path: String, waiting: Bool = false, fileSystem fs: any StorageFileSystem = PosixFileSystem()
    ) throws(SystemCallError) -> FileLock? {
        let fd = try fs.open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        var locked = false
        defer { if !locked { try? fs.close(fd) } }
        locked = try fs.lockExclusive(fd, wait: waiting)
        return locked ? FileLock(fd: fd, fileSystem: fs) : nil
    }

    /// Releases the lock (closing the descriptor releases it too).
    package func unlock() {
        fileSystem.unlock(fd)
        try? fileSystem.close(fd)
    }
}
