#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Thin wrappers over the file system calls the stores need, retrying `EINTR` and turning `-1` into
/// ``SystemCallError``. Nothing here knows about keys or journals.
enum POSIX {
    /// The system's text for `code` (`strerror`).
    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// `open(2)`, retried on `EINTR`.
    static func openFile(_ path: String, _ flags: Int32, mode: mode_t = 0) throws -> Int32 {
        while true {
            let fd = open(path, flags, mode)
            if fd >= 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError("open", code: code)
        }
    }

    /// `close(2)`; never retried (the descriptor is gone either way on Linux and macOS).
    static func closeFile(_ fd: Int32) throws {
        if close(fd) != 0 {
            let code = errno
            if code == EINTR { return }
            throw SystemCallError("close", code: code)
        }
    }

    /// Writes every byte of `data` at the descriptor's position, looping on partial writes and `EINTR`.
    static func writeFully(_ fd: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(fd, base + offset, raw.count - offset)
                if written < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    throw SystemCallError("write", code: code)
                }
                if written == 0 { throw SystemCallError("write", message: "the write made no progress") }
                offset += written
            }
        }
    }

    /// Reads from the descriptor's position to the end of the file.
    static func readToEnd(_ fd: Int32) throws -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fd, base, raw.count)
            }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw SystemCallError("read", code: code)
            }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
        }
    }

    /// Flushes the file's data and metadata to stable storage (`F_FULLFSYNC` on Apple platforms, where plain
    /// `fsync` may stop at the drive's cache).
    static func sync(_ fd: Int32) throws {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(fd) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError("fsync", code: code)
        }
    }

    /// Flushes a directory so that a rename, creation or removal inside it survives a power loss.
    ///
    /// File systems that cannot sync a directory (`EINVAL`, `ENOTSUP`) are accepted: there is nothing more to do.
    static func syncDirectory(_ path: String) throws {
        let fd = try openFile(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { _ = close(fd) }
        do {
            try sync(fd)
        } catch let error as SystemCallError where error.code == EINVAL || error.code == ENOTSUP {
            return
        }
    }

    /// `stat(2)` following symbolic links; `nil` when nothing exists at `path`.
    static func status(_ path: String) throws -> stat? {
        var info = stat()
        if stat(path, &info) == 0 { return info }
        let code = errno
        if code == ENOENT { return nil }
        throw SystemCallError("stat", code: code)
    }

    /// `fstat(2)`.
    static func status(_ fd: Int32) throws -> stat {
        var info = stat()
        if fstat(fd, &info) == 0 { return info }
        throw SystemCallError("fstat", code: errno)
    }

    /// Whether a `stat` result describes a directory.
    static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }

    /// Whether a `stat` result describes a regular file.
    static func isRegularFile(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }

    /// The permission bits of a `stat` result.
    static func permissions(_ info: stat) -> mode_t { info.st_mode & 0o7777 }

    /// `unlink(2)`; returns `false` when there was nothing to remove.
    @discardableResult
    static func removeFile(_ path: String) throws -> Bool {
        if unlink(path) == 0 { return true }
        let code = errno
        if code == ENOENT { return false }
        throw SystemCallError("unlink", code: code)
    }

    /// `rename(2)`.
    static func renameFile(_ from: String, to: String) throws {
        if rename(from, to) != 0 { throw SystemCallError("rename", code: errno) }
    }

    /// `ftruncate(2)`, retried on `EINTR`.
    static func truncate(_ fd: Int32, to length: Int) throws {
        while ftruncate(fd, off_t(length)) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError("ftruncate", code: code)
        }
    }

    /// The last byte of the file, or `nil` when it is empty.
    static func lastByte(_ fd: Int32) throws -> UInt8? {
        let size = try status(fd).st_size
        guard size > 0 else { return nil }
        var byte: UInt8 = 0
        while true {
            let count = pread(fd, &byte, 1, size - 1)
            if count == 1 { return byte }
            let code = errno
            if count < 0 && code == EINTR { continue }
            throw SystemCallError("pread", code: count < 0 ? code : EIO)
        }
    }

    /// The names in a directory, without `.` and `..`.
    static func directoryEntries(_ path: String) throws -> [String] {
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
}
