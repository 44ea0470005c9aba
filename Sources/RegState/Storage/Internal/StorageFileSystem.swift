#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Every system call the file stores make, one requirement per call (retrying `EINTR`), so that RegStateSimulation's
/// file system (failures, a full disk, a crash between any two calls) can stand under the real storage code.
package protocol StorageFileSystem: Sendable {
    /// `open(2)`; returns the descriptor.
    func open(_ path: String, _ flags: Int32, mode: mode_t) throws(SystemCallError) -> Int32
    /// `close(2)`.
    func close(_ fd: Int32) throws(SystemCallError)
    /// One `write(2)` at the descriptor's position (at the end with `O_APPEND`); returns the bytes written.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int
    /// One `read(2)` from the descriptor's position; returns the bytes read, `0` at the end.
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int
    /// One `pread(2)` at `offset`; returns the bytes read.
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemCallError) -> Int
    /// `lseek(fd, offset, SEEK_SET)`.
    func seek(_ fd: Int32, to offset: Int) throws(SystemCallError)
    /// `fsync(2)` (`F_FULLFSYNC` on Apple platforms), on a file or a directory.
    func sync(_ fd: Int32) throws(SystemCallError)
    /// `ftruncate(2)`.
    func truncate(_ fd: Int32, to length: Int) throws(SystemCallError)
    /// `stat(2)`; `nil` when nothing exists at `path`.
    func status(_ path: String) throws(SystemCallError) -> stat?
    /// `fstat(2)`.
    func status(_ fd: Int32) throws(SystemCallError) -> stat
    /// `chmod(2)`.
    func changeMode(_ path: String, _ mode: mode_t) throws(SystemCallError)
    /// `fchmod(2)`.
    func changeMode(_ fd: Int32, _ mode: mode_t) throws(SystemCallError)
    /// `mkdir(2)` (throws with `EEXIST` when something is there).
    func makeDirectory(_ path: String, _ mode: mode_t) throws(SystemCallError)
    /// `rename(2)`.
    func rename(_ from: String, to: String) throws(SystemCallError)
    /// `unlink(2)`; nothing to remove is not an error.
    func unlink(_ path: String) throws(SystemCallError)
    /// `opendir`/`readdir`: the names in a directory, without `.` and `..`.
    func directoryEntries(_ path: String) throws(SystemCallError) -> [String]
    /// `access(2)`.
    func access(_ path: String, _ mode: Int32) throws(SystemCallError)
    /// `flock(2)` with `LOCK_EX | LOCK_NB` (or `LOCK_EX` when `wait`); `false` when another descriptor holds it.
    func lockExclusive(_ fd: Int32, wait: Bool) throws(SystemCallError) -> Bool
    /// `flock(fd, LOCK_UN)`.
    func unlock(_ fd: Int32)
    /// `geteuid()`.
    func effectiveUserID() -> uid_t
    /// A random suffix for a temporary file's name.
    func temporarySuffix() -> UInt64
    /// Seconds on a clock that only moves forward, for the lock loops' deadlines.
    func now() -> TimeInterval
    /// Waits before a lock loop tries again (in a task).
    func pause(nanoseconds: UInt64) async
    /// Waits before a lock loop tries again (on a thread).
    func pauseBlocking(microseconds: UInt32)
}

/// The real file system: each requirement is the POSIX call of the same name.
package struct PosixFileSystem: StorageFileSystem {
    package init() {}

    package func open(_ path: String, _ flags: Int32, mode: mode_t) throws(SystemCallError) -> Int32 {
        try Self.retryingInterrupted("open") { systemOpen(path, flags, mode) }
    }

    package func close(_ fd: Int32) throws(SystemCallError) {
        if systemClose(fd) != 0 {
            let code = errno
            // Never retried: the descriptor is gone either way on Linux and macOS.
            if code == EINTR { return }
            throw SystemCallError("close", code: code)
        }
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        return try Self.retryingInterrupted("write") { systemWrite(fd, base, bytes.count) }
    }

    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return try Self.retryingInterrupted("read") { systemRead(fd, base, buffer.count) }
    }

    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return try Self.retryingInterrupted("pread") { pread(fd, base, buffer.count, off_t(offset)) }
    }

    package func seek(_ fd: Int32, to offset: Int) throws(SystemCallError) {
        guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else { throw SystemCallError("lseek", code: errno) }
    }

    package func sync(_ fd: Int32) throws(SystemCallError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        _ = try Self.retryingInterrupted("fsync") { fsync(fd) }
    }

    package func truncate(_ fd: Int32, to length: Int) throws(SystemCallError) {
        _ = try Self.retryingInterrupted("ftruncate") { ftruncate(fd, off_t(length)) }
    }

    package func status(_ path: String) throws(SystemCallError) -> stat? {
        var info = stat()
        if stat(path, &info) == 0 { return info }
        let code = errno
        if code == ENOENT { return nil }
        throw SystemCallError("stat", code: code)
    }

    package func status(_ fd: Int32) throws(SystemCallError) -> stat {
        var info = stat()
        if fstat(fd, &info) == 0 { return info }
        throw SystemCallError("fstat", code: errno)
    }

    package func changeMode(_ path: String, _ mode: mode_t) throws(SystemCallError) {
        if chmod(path, mode) != 0 { throw SystemCallError("chmod", code: errno) }
    }

    package func changeMode(_ fd: Int32, _ mode: mode_t) throws(SystemCallError) {
        if fchmod(fd, mode) != 0 { throw SystemCallError("fchmod", code: errno) }
    }

    package func makeDirectory(_ path: String, _ mode: mode_t) throws(SystemCallError) {
        if mkdir(path, mode) != 0 { throw SystemCallError("mkdir", code: errno) }
    }

    package func rename(_ from: String, to: String) throws(SystemCallError) {
        if systemRename(from, to) != 0 { throw SystemCallError("rename", code: errno) }
    }

    package func unlink(_ path: String) throws(SystemCallError) {
        guard systemUnlink(path) != 0, errno != ENOENT else { return }
        throw SystemCallError("unlink", code: errno)
    }

    package func directoryEntries(_ path: String) throws(SystemCallError) -> [String] {
        guard let directory = opendir(path) else { throw SystemCallError("opendir", code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    package func access(_ path: String, _ mode: Int32) throws(SystemCallError) {
        if systemAccess(path, mode) != 0 { throw SystemCallError("access", code: errno) }
    }

    package func lockExclusive(_ fd: Int32, wait: Bool) throws(SystemCallError) -> Bool {
        while flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            if !wait && (code == EWOULDBLOCK || code == EAGAIN) { return false }
            throw SystemCallError("flock", code: code)
        }
        return true
    }

    package func unlock(_ fd: Int32) { _ = flock(fd, LOCK_UN) }

    package func effectiveUserID() -> uid_t { geteuid() }

    package func temporarySuffix() -> UInt64 { UInt64.random(in: .min ... .max) }

    package func now() -> TimeInterval { Date().timeIntervalSinceReferenceDate }

    package func pause(nanoseconds: UInt64) async { try? await Task.sleep(nanoseconds: nanoseconds) }

    package func pauseBlocking(microseconds: UInt32) { usleep(microseconds) }

    /// Makes `call` again while it fails with `EINTR`; any other failure (a negative result) throws with `errno`.
    private static func retryingInterrupted<Result: BinaryInteger>(
        _ operation: String, _ call: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw SystemCallError(operation, code: code) }
        }
    }
}

// The C calls `PosixFileSystem`'s methods share a name with (inside the type a method hides them).
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, bytes, count) }
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func systemUnlink(_ path: String) -> Int32 { unlink(path) }
private func systemAccess(_ path: String, _ mode: Int32) -> Int32 { access(path, mode) }
