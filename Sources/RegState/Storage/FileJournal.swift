#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An ``EventJournal`` in one file (mode 0600): one checksummed line per event, appended with `O_APPEND` and
/// `fsync`ed before `append` returns; processes share it under a `flock` (<doc:ProcessesSharingAStore>).
public final class FileJournal: EventJournal {
    /// The journal file.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: false) }
    /// ``url``'s path, standardized.
    package let path: String
    /// Serialises this instance's calls (the file lock serialises processes).
    let lock = NSLock()
    /// The file (device and inode) whose name this instance last made durable.
    let syncedFile = LockedValue<[UInt64]?>(nil)
    /// How long a call waits for another process to release the journal's file lock before it fails: the lock is
    /// only ever held for one read and one write, so a longer wait means a stuck (stopped) process.
    public static let lockTimeout: TimeInterval = 10
    /// The bytes parsed last and what they held, so the next read parses only what was appended since.
    let lastParse = LockedValue<(bytes: Data, parsed: JournalFraming.Parsed)?>(nil)
    /// The real file system, or a simulated one (RegStateSimulation).
    let fileSystem: any StorageFileSystem

    /// Opens the journal at `url`, creating an empty one (mode 0600) if missing; the parent directory must exist. An
    /// existing file of this user is tightened to 0600; a crashed ``replaceAll(with:)``'s temporary files are removed.
    ///
    /// - Throws: ``JournalError/unreadable(_:)`` when the file cannot be opened or created, or is not a regular file.
    public convenience init(url: URL) throws(JournalError) {
        try self.init(path: url.path, fileSystem: PosixFileSystem())
    }

    /// Opens the journal at the file `path` (standardized as ``init(url:)`` does) on `fileSystem`.
    package init(path given: String, fileSystem fs: any StorageFileSystem) throws(JournalError) {
        let path = PlainPath.standardized(given)
        self.path = path
        self.fileSystem = fs
        do throws(SystemCallError) {
            let existed = try fs.status(path) != nil
            let fd = try fs.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode: 0o600)
            defer { try? fs.close(fd) }
            let info = try fs.status(fd)
            guard POSIX.isRegularFile(info) else { throw SystemCallError("open", message: "not a regular file") }
            if info.st_uid == fs.effectiveUserID(), POSIX.permissions(info) != 0o600 {
                try fs.changeMode(fd, 0o600)
            }
            if !existed {
                try fs.sync(fd)
                try fs.syncDirectory(PlainPath.parent(of: path))
            }
        } catch {
            throw .unreadable(error.reason)
        }
        // Another process's compaction may have its temporary file in flight: remove leftovers only under the lock.
        _ = try withLockedFile(O_RDWR | O_CREAT, failure: JournalError.unreadable) { _ throws(SystemCallError) in
            try AtomicFile.removeStaleTemporaryFiles(
                in: PlainPath.parent(of: path), for: PlainPath.lastComponent(of: path), fileSystem: fs)
        }
    }

    /// Appends one line durably: written whole with `O_APPEND`, then `fsync`ed.
    ///
    /// - Throws: ``JournalError/writeFailed(_:)`` when `line` contains a newline or the file cannot be written.
    public func append(_ line: Data) throws(JournalError) {
        let framed = try JournalFraming.frame(line)
        try withLockedFile(O_RDWR | O_APPEND | O_CREAT, failure: JournalError.writeFailed) { fd throws(SystemCallError) in
            try repairTornTail(fd)
            try fileSystem.writeFully(fd, framed)
            try fileSystem.sync(fd)
        }
    }

    /// Every intact line, oldest first, and how many damaged lines were dropped (a missing file reads as empty); cuts
    /// a damaged tail off the file, or leaves the repair to the next ``append(_:)`` when it cannot (a read-only file).
    ///
    /// - Throws: ``JournalError/unreadable(_:)`` when the file cannot be read.
    public func read() throws(JournalError) -> JournalContents {
        do {
            guard try fileSystem.status(path) != nil else { return JournalContents(lines: [], droppedLines: 0) }
        } catch {
            throw .unreadable(error.reason)
        }
        return try withLockedFile(O_RDONLY, failure: JournalError.unreadable) { fd throws(SystemCallError) in
            let parsed = parseRemembering(try fileSystem.readToEnd(fd))
            if parsed.hasDamagedTail {
                try? truncate(path, to: parsed.intactLength)
            }
            return JournalContents(lines: parsed.lines, droppedLines: parsed.dropped)
        }
    }

    /// Replaces the whole journal with `lines`, atomically (temporary file, `fsync`, `rename`, directory `fsync`).
    ///
    /// - Throws: ``JournalError/writeFailed(_:)`` for a newline in a line or a failed write (the old journal stays).
    public func replaceAll(with lines: [Data]) throws(JournalError) {
        let content = try JournalFraming.frame(lines: lines)
        try withLockedFile(O_RDWR | O_CREAT, failure: JournalError.writeFailed) { _ throws(SystemCallError) in
            try AtomicFile.write(content, to: path, mode: 0o600, fileSystem: fileSystem)
        }
    }

    /// Reads the journal and writes what `decide` answers under the file's lock (a dead writer's torn tail cut first).
    ///
    /// - Throws: ``JournalError/writeFailed(_:)`` (also after ``lockTimeout`` locked out), or what `decide` throws.
    public func update(_ decide: (JournalContents) throws(JournalError) -> JournalWrite?) throws(JournalError) {
        try withLockedFile(O_RDWR | O_APPEND | O_CREAT, failure: JournalError.writeFailed) {
            fd throws(SystemCallError) -> Result<Void, JournalError> in
            let fs = fileSystem
            try repairTornTail(fd)
            try fs.seek(fd, to: 0)
            let parsed = parseRemembering(try fs.readToEnd(fd))
            let contents = JournalContents(lines: parsed.lines, droppedLines: parsed.dropped)
            let framed: (bytes: Data, replaces: Bool)?
            do throws(JournalError) {
                framed = try decide(contents).map(Self.framed)
            } catch {
                return .failure(error)
            }
            guard let framed else { return .success(()) }
            if framed.replaces {
                try AtomicFile.write(framed.bytes, to: path, mode: 0o600, fileSystem: fs)
            } else {
                try fs.writeFully(fd, framed.bytes)
                try fs.sync(fd)
            }
            return .success(())
        }.get()
    }

    private static func framed(_ write: JournalWrite) throws(JournalError) -> (bytes: Data, replaces: Bool) {
        switch write {
        case .append(let line): (try JournalFraming.frame(line), false)
        case .appendLines(let lines): (try JournalFraming.frame(lines: lines), false)
        case .replaceAll(let lines): (try JournalFraming.frame(lines: lines), true)
        }
    }

    private func parseRemembering(_ bytes: Data) -> JournalFraming.Parsed {
        let parsed = JournalFraming.parse(bytes, continuing: lastParse.withLock { $0 })
        lastParse.withLock { $0 = (bytes, parsed) }
        return parsed
    }

    /// Cuts the file back to its last intact line if it does not end with a newline (a torn append).
    private func repairTornTail(_ fd: Int32) throws(SystemCallError) {
        let fs = fileSystem
        guard let last = try fs.lastByte(fd), last != JournalFraming.newline else { return }
        try fs.seek(fd, to: 0)
        let parsed = JournalFraming.parse(try fs.readToEnd(fd))
        try fs.truncate(fd, to: parsed.intactLength)
        try fs.sync(fd)
    }

    private func truncate(_ path: String, to length: Int) throws(SystemCallError) {
        let fs = fileSystem
        let fd = try fs.open(path, O_WRONLY | O_CLOEXEC, mode: 0)
        defer { try? fs.close(fd) }
        try fs.truncate(fd, to: length)
        try fs.sync(fd)
    }
}
