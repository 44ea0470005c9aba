#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An advisory, whole-file `flock(2)` lock on a lock file: exclusive between processes (and between descriptors of
/// one process), released by `unlock()` or by the kernel when the holder's descriptor closes, so a process that dies
/// holding it never blocks the others.
package final class FileLock: Sendable {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock on `path` (created with mode 0600 when missing) without waiting; `nil` when another
    /// descriptor holds it.
    ///
    /// - Throws: ``SystemCallError`` when the lock file cannot be opened or locked for another reason.
    package static func tryLock(_ path: String) throws -> FileLock? {
        let fd = try POSIX.openFile(path, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            _ = close(fd)
            if code == EWOULDBLOCK || code == EAGAIN { return nil }
            throw SystemCallError("flock", code: code)
        }
        return FileLock(fd: fd)
    }

    /// Takes the lock on `path`, waiting as long as another descriptor holds it. For short critical sections only
    /// (the simulator's request transaction); the store uses ``tryLock(_:)`` with a bounded wait.
    ///
    /// - Throws: ``SystemCallError``.
    package static func lock(_ path: String) throws -> FileLock {
        let fd = try POSIX.openFile(path, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        while flock(fd, LOCK_EX) != 0 {
            let code = errno
            if code == EINTR { continue }
            _ = close(fd)
            throw SystemCallError("flock", code: code)
        }
        return FileLock(fd: fd)
    }

    /// Releases the lock (closing the descriptor releases it too).
    package func unlock() {
        _ = flock(fd, LOCK_UN)
        _ = close(fd)
    }
}
