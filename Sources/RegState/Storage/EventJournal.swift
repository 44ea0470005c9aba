import Foundation

/// An append-only log of lines, each framed with a checksum: where the engine records every event it learns.
///
/// The journal frames and checks; what a line says is the engine's business (JSON of one journaled event). A torn or
/// corrupt last line (a crash mid-append) is dropped on read, never fatal. Implementations: ``FileJournal`` and
/// ``InMemoryJournal``.
public protocol EventJournal: Sendable {
    /// Appends one line (without its newline) durably.
    ///
    /// - Throws: ``JournalError/writeFailed(_:)``.
    func append(_ line: Data) throws
    /// Every intact line, oldest first, and how many damaged lines were dropped.
    ///
    /// - Throws: ``JournalError/unreadable(_:)`` when the journal cannot be read at all.
    func read() throws -> JournalContents
    /// Replaces the whole journal with `lines` atomically (compaction, clear-state).
    ///
    /// - Throws: ``JournalError/writeFailed(_:)``.
    func replaceAll(with lines: [Data]) throws
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
