import Foundation

/// An append-only log of checksummed lines, where the engine records every event it learns; a torn or corrupt last
/// line (a crash mid-append) is dropped on read. Implementations: ``FileJournal``, `InMemoryJournal` (RegStateTesting).
public protocol EventJournal: Sendable {
    /// Appends one line (without its newline) durably.
    func append(_ line: Data) throws(JournalError)
    /// Every intact line, oldest first, and how many damaged lines were dropped.
    ///
    /// - Throws: ``JournalError/unreadable(_:)`` when the journal cannot be read at all.
    func read() throws(JournalError) -> JournalContents
    /// Replaces the whole journal with `lines` atomically (compaction, clear-state).
    func replaceAll(with lines: [Data]) throws(JournalError)
    /// Reads the journal and writes what `decide` answers, as one step no other writer interleaves with (between
    /// processes for a ``FileJournal``), so processes sharing a journal never number two lines alike.
    ///
    /// - Throws: ``JournalError`` when the journal cannot be read or written, or what `decide` throws (then nothing).
    func update(_ decide: (JournalContents) throws(JournalError) -> JournalWrite?) throws(JournalError)
}

/// What ``EventJournal/update(_:)`` writes after reading the journal.
public enum JournalWrite: Sendable, Equatable {
    /// Append one line (without its newline).
    case append(Data)
    /// Append several lines in one write made durable once (one `fsync`): a crash keeps a prefix of them, each line
    /// whole or not at all.
    case appendLines([Data])
    /// Replace the whole journal with these lines (a compaction folds what was read into a snapshot).
    case replaceAll([Data])
}

/// Serialises ``EventJournal/update(_:)`` of journals that bring no lock of their own.
private let processWideJournalLock = NSLock()

extension EventJournal {
    /// Reads, decides and writes holding one lock of this process: enough for a journal that only this process
    /// writes. A journal shared between processes implements its own (as ``FileJournal`` does).
    public func update(_ decide: (JournalContents) throws(JournalError) -> JournalWrite?) throws(JournalError) {
        processWideJournalLock.lock()
        defer { processWideJournalLock.unlock() }
        switch try decide(try read()) {
        case nil: break
        case .append(let line): try append(line)
        case .appendLines(let lines): for line in lines { try append(line) }
        case .replaceAll(let lines): try replaceAll(with: lines)
        }
    }
}

/// What reading a journal found.
public struct JournalContents: Sendable, Equatable {
    /// The intact lines, oldest first.
    public var lines: [Data]
    /// How many lines failed their checksum or were torn and were dropped.
    public var droppedLines: Int

    /// Creates the result of a read.
    public init(lines: [Data], droppedLines: Int) {
        self.lines = lines
        self.droppedLines = droppedLines
    }
}

/// Why the journal failed.
public enum JournalError: Error, Sendable, Equatable {
    /// The journal could not be read; the detail is the system's reason.
    case unreadable(String)
    /// A line could not be written; the detail is the system's reason.
    case writeFailed(String)
}

extension JournalError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .unreadable(let reason): "The event journal cannot be read: \(reason)."
        case .writeFailed(let reason): "The event journal cannot be written: \(reason)."
        }
    }
}
