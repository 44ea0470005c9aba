#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An ``EventJournal`` in one file (mode 0600): one checksummed line per event, appended with `O_APPEND` and
/// `fsync`ed before `append` returns.
///
/// Each line is `<8 hex digits: CRC-32 of the payload> <payload>\n`. A crash mid-append can leave a torn last line;
/// ``read()`` drops it, counts it, and cuts the file back to the end of the last intact line so the next append
/// starts clean (``append(_:)`` does the same repair itself if it finds the file not ending in a newline). A
/// damaged line in the middle is skipped and counted, never fatal. ``replaceAll(with:)`` rewrites the file
/// atomically. Calls from several threads are serialised, and so are calls from several processes sharing the file:
/// every call holds an advisory `flock(2)` on the journal file itself (re-opened when another process's
/// ``replaceAll(with:)`` renamed a new file over it), so an append never interleaves with another process's
/// append, repair or compaction, and ``update(_:)`` reads and writes as one step.
public final class FileJournal: EventJournal {
    /// The journal file.
    public let url: URL
    /// Serialises this instance's reads, appends and rewrites (the file lock serialises processes).
    let lock = NSLock()
    /// How long a call waits for another process to release the journal's file lock before it fails: the lock is
    /// only ever held for one read and one write, so a longer wait means a stuck (stopped) process.
    public static let lockTimeout: TimeInterval = 10

    /// Opens the journal at `url`, creating an empty one (mode 0600) if missing; the parent directory must exist.
    ///
    /// An existing file owned by this user is tightened to 0600; temporary files a crashed ``replaceAll(with:)``
    /// left next to it are removed.
    ///
    /// - Throws: ``JournalError/unreadable(_:)`` when the file cannot be opened or created, or is not a regular file.
    public init(url: URL) throws {
        self.url = url.standardizedFileURL
        let path = self.url.path
        do {
            let existed = try POSIX.status(path) != nil
            let fd = try POSIX.openFile(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode: 0o600)
            defer { _ = close(fd) }
            let info = try POSIX.status(fd)
            guard POSIX.isRegularFile(info) else { throw SystemCallError("open", message: "not a regular file") }
            if info.st_uid == geteuid(), POSIX.permissions(info) != 0o600, fchmod(fd, 0o600) != 0 {
                throw SystemCallError("fchmod", code: errno)
            }
            if !existed {
                try POSIX.sync(fd)
                try POSIX.syncDirectory(self.url.deletingLastPathComponent().path)
            }
        } catch {
            throw JournalError.unreadable(SystemCallError.reason(of: error))
        }
        // Another process's compaction may have its temporary file in flight: remove leftovers only under the lock.
        _ = try withLockedFile(O_RDWR | O_CREAT, failure: JournalError.unreadable) { _ in
            try AtomicFile.removeStaleTemporaryFiles(for: self.url)
        }
    }

    /// Appends one line durably: written whole with `O_APPEND`, then `fsync`ed.
    ///
    /// - Throws: ``JournalError/writeFailed(_:)`` when `line` contains a newline or the file cannot be written.
    public func append(_ line: Data) throws {
        let framed = try JournalFraming.frame(line)
        try withLockedFile(O_RDWR | O_APPEND | O_CREAT, failure: JournalError.writeFailed) { fd in
            try Self.repairTornTail(fd)
            try POSIX.writeFully(fd, framed)
            try POSIX.sync(fd)
        }
    }

    /// Every intact line, oldest first, and how many damaged lines were dropped; cuts a damaged tail off the file.
    ///
    /// A missing file reads as empty. If the damaged tail cannot be cut (a read-only file), the read still
    /// succeeds; the next ``append(_:)`` retries the repair and fails if it cannot.
    ///
    /// - Throws: ``JournalError/unreadable(_:)`` when the file cannot be read.
    public func read() throws -> JournalContents {
        guard try fileExists() else {
            return JournalContents(lines: [], droppedLines: 0)
        }
        return try withLockedFile(O_RDONLY, failure: JournalError.unreadable) { fd in
            let parsed = JournalFraming.parse(try POSIX.readToEnd(fd))
            if parsed.hasDamagedTail {
                try? Self.truncate(url.path, to: parsed.intactLength)
            }
            return JournalContents(lines: parsed.lines, droppedLines: parsed.dropped)
        }
    }

    /// Replaces the whole journal with `lines`, atomically (temporary file, `fsync`, `rename`, directory `fsync`).
    ///
    /// - Throws: ``JournalError/writeFailed(_:)`` when a line contains a newline or the file cannot be written;
    ///   the previous journal is then intact.
    public func replaceAll(with lines: [Data]) throws {
        let content = try JournalFraming.frame(lines: lines)
        try withLockedFile(O_RDWR | O_CREAT, failure: JournalError.writeFailed) { _ in
            try AtomicFile.write(content, to: url, mode: 0o600)
        }
    }

    /// Reads the journal and writes what `decide` answers, holding the file's lock throughout: no other process
    /// appends, repairs or compacts in between. A torn tail a dead writer left is cut first.
    ///
    /// - Throws: ``JournalError/writeFailed(_:)`` when the file cannot be read or written (or stays locked by another
    ///   process for ``lockTimeout``), or what `decide` throws.
    public func update(_ decide: (JournalContents) throws -> JournalWrite?) throws {
        try withLockedFile(O_RDWR | O_APPEND | O_CREAT, failure: JournalError.writeFailed) { fd in
            try Self.repairTornTail(fd)
            guard lseek(fd, 0, SEEK_SET) == 0 else { throw SystemCallError("lseek", code: errno) }
            let parsed = JournalFraming.parse(try POSIX.readToEnd(fd))
            let contents = JournalContents(lines: parsed.lines, droppedLines: parsed.dropped)
            switch try decide(contents) {
            case nil:
                break
            case .append(let line):
                try POSIX.writeFully(fd, try JournalFraming.frame(line))
                try POSIX.sync(fd)
            case .appendLines(let lines):
                try POSIX.writeFully(fd, try JournalFraming.frame(lines: lines))
                try POSIX.sync(fd)
            case .replaceAll(let lines):
                try AtomicFile.write(try JournalFraming.frame(lines: lines), to: url, mode: 0o600)
            }
        }
    }

    /// Cuts the file back to its last intact line if it does not end with a newline (a torn append).
    private static func repairTornTail(_ fd: Int32) throws {
        guard let last = try POSIX.lastByte(fd), last != JournalFraming.newline else { return }
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw SystemCallError("lseek", code: errno) }
        let parsed = JournalFraming.parse(try POSIX.readToEnd(fd))
        try POSIX.truncate(fd, to: parsed.intactLength)
        try POSIX.sync(fd)
    }

    /// Truncates the file at `path` to `length` bytes and syncs it.
    private static func truncate(_ path: String, to length: Int) throws {
        let fd = try POSIX.openFile(path, O_WRONLY | O_CLOEXEC)
        defer { _ = close(fd) }
        try POSIX.truncate(fd, to: length)
        try POSIX.sync(fd)
    }
}
