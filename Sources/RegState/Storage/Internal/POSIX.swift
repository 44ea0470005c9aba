#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What the stores read out of `stat` results and `errno` values.
package enum POSIX {
    /// The system's text for `code` (`strerror`).
    package static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Whether a `stat` result describes a directory.
    static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }

    /// Whether a `stat` result describes a regular file.
    static func isRegularFile(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }

    /// The permission bits of a `stat` result.
    static func permissions(_ info: stat) -> mode_t { info.st_mode & 0o7777 }

    /// Whether two `stat` results name the same file.
    static func sameFile(_ a: stat, _ b: stat) -> Bool { a.st_dev == b.st_dev && a.st_ino == b.st_ino }
}

/// The loops the stores build from single system calls, written once for every ``StorageFileSystem``.
extension StorageFileSystem {
    /// Writes every byte of `data` at the descriptor's position, looping on partial writes.
    package func writeFully(_ fd: Int32, _ data: Data) throws(SystemCallError) {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            Result { () throws(SystemCallError) in
                var offset = 0
                while offset < raw.count {
                    let written = try write(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]))
                    if written == 0 { throw SystemCallError("write", message: "the write made no progress") }
                    offset += written
                }
            }
        }.get()
    }

    /// Reads from the descriptor's position to the end of the file, into uninitialized memory (zeroing a 64 KiB
    /// buffer for a record of a few KiB cost `regstate status` resident memory).
    package func readToEnd(_ fd: Int32) throws(SystemCallError) -> Data {
        var result = Data()
        while true {
            var count = Result<Int, SystemCallError>.success(0)
            let chunk = [UInt8](unsafeUninitializedCapacity: 64 * 1024) { buffer, initialized in
                count = Result { () throws(SystemCallError) in try read(fd, into: UnsafeMutableRawBufferPointer(buffer)) }
                initialized = (try? count.get()) ?? 0
            }
            if try count.get() == 0 { return result }
            result.append(contentsOf: chunk)
        }
    }

    /// Flushes a directory so that a rename, creation or removal inside it survives a power loss (a file system that
    /// cannot sync a directory, `EINVAL` or `ENOTSUP`, has nothing more to do).
    package func syncDirectory(_ path: String) throws(SystemCallError) {
        let fd = try open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, mode: 0)
        defer { try? close(fd) }
        do {
            try sync(fd)
        } catch where error.code == EINVAL || error.code == ENOTSUP {
            return
        }
    }

    /// The last byte of the file, or `nil` when it is empty.
    package func lastByte(_ fd: Int32) throws(SystemCallError) -> UInt8? {
        let size = Int(try status(fd).st_size)
        guard size > 0 else { return nil }
        var byte: UInt8 = 0
        let count = try withUnsafeMutableBytes(of: &byte) { bytes in
            Result { () throws(SystemCallError) in try read(fd, into: bytes, at: size - 1) }
        }.get()
        guard count == 1 else { throw SystemCallError("pread", code: EIO) }
        return byte
    }

    /// Creates the directory at `path` and any missing parents (mode 0777 before the umask), like
    /// `FileManager.createDirectory(atPath:withIntermediateDirectories: true)`.
    package func createDirectories(_ path: String) throws(SystemCallError) {
        if let info = try status(path) {
            guard POSIX.isDirectory(info) else { throw SystemCallError("mkdir", code: ENOTDIR) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createDirectories(parent) }
        do {
            try makeDirectory(path, 0o777)
        } catch where error.code == EEXIST {
            return
        }
    }
}
