#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Whole-file writes that a crash cannot tear: a temporary file beside the target (`O_CREAT|O_EXCL`, named with
/// ``temporaryPrefix``), every byte written, `fsync`, `rename` over the target, `fsync` of the directory.
package enum AtomicFile {
    /// How every temporary file's name starts; a leading dot keeps it out of key listings.
    package static let temporaryPrefix = ".regstate-tmp-"

    /// Replaces the file at `path` with `data`, atomically and durably, with permissions `mode` (umask ignored). On
    /// failure the target is untouched, unless only the last directory `fsync` failed (then it is new but not durable).
    package static func write(
        _ data: Data, to target: String, mode: mode_t, fileSystem fs: any StorageFileSystem = PosixFileSystem()
    ) throws(SystemCallError) {
        let directory = PlainPath.parent(of: target)
        let (temporary, fd) = try createTemporaryFile(in: directory, for: PlainPath.lastComponent(of: target), mode: mode, fs)
        do {
            try fs.changeMode(fd, mode)
            try fs.writeFully(fd, data)
            try fs.sync(fd)
        } catch {
            try? fs.close(fd)
            try? fs.unlink(temporary)
            throw error
        }
        do {
            try fs.close(fd)
            try fs.rename(temporary, to: target)
        } catch {
            try? fs.unlink(temporary)
            throw error
        }
        try fs.syncDirectory(directory)
    }

    /// The contents of the file at `path`, or `nil` when there is none; throws when something else is there.
    package static func contents(
        of path: String, fileSystem fs: any StorageFileSystem = PosixFileSystem()
    ) throws(SystemCallError) -> Data? {
        let fd: Int32
        do {
            fd = try fs.open(path, O_RDONLY | O_CLOEXEC, mode: 0)
        } catch where error.code == ENOENT {
            return nil
        }
        defer { try? fs.close(fd) }
        guard POSIX.isRegularFile(try fs.status(fd)) else {
            throw SystemCallError("open", message: "not a regular file")
        }
        return try fs.readToEnd(fd)
    }

    /// Removes the temporary files a crashed writer left in `directory`, only those of the file `name` when given.
    /// Call it when no other writer uses them.
    package static func removeStaleTemporaryFiles(
        in directory: String, for name: String? = nil, fileSystem fs: any StorageFileSystem = PosixFileSystem()
    ) throws(SystemCallError) {
        let prefix = name.map(temporaryName) ?? temporaryPrefix
        for entry in try fs.directoryEntries(directory) where entry.hasPrefix(prefix) {
            try fs.unlink(PlainPath.appending(entry, to: directory))
        }
    }

    /// The start of every temporary file's name for a target named `name` (a random suffix follows).
    private static func temporaryName(for name: String) -> String {
        temporaryPrefix + String(name.prefix(100)) + "."
    }

    /// Creates a fresh temporary file next to the target, retrying on a name collision.
    private static func createTemporaryFile(
        in directory: String, for name: String, mode: mode_t, _ fs: any StorageFileSystem
    ) throws(SystemCallError) -> (path: String, fd: Int32) {
        var attempt = 0
        while true {
            let suffix = String(fs.temporarySuffix(), radix: 16)
            let path = directory + "/" + temporaryName(for: name) + suffix
            do {
                let fd = try fs.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: mode)
                return (path, fd)
            } catch where error.code == EEXIST && attempt < 8 {
                attempt += 1
            }
        }
    }
}
