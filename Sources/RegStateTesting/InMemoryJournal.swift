import Foundation
import RegState

/// An ``EventJournal`` in memory, for tests and previews, with exactly the file journal's semantics: it keeps the
/// same framed bytes and parses them the same way.
///
/// ``appendRawBytes(_:)`` injects what a crash would leave (a torn line, a corrupt one), and ``failNextWrite(_:)``
/// makes the next write fail, so callers can test recovery without a real crash.
public final class InMemoryJournal: EventJournal {
    /// The framed bytes plus the pending injected failure.
    private struct State {
        var bytes = Data()
        var nextWriteError: JournalError?
    }

    private let state = LockedValue(State())

    /// Creates an empty journal.
    public init() {}

    /// The framed bytes as a file would hold them, for assertions on repair and framing.
    public var rawBytes: Data { state.withLock { $0.bytes } }

    /// Appends `bytes` unframed and unchecked, as a crash or a disk fault would leave them.
    public func appendRawBytes(_ bytes: Data) {
        state.withLock { $0.bytes.append(bytes) }
    }

    /// Makes the next ``append(_:)`` or ``replaceAll(with:)`` throw `error` without changing anything.
    public func failNextWrite(_ error: JournalError) {
        state.withLock { $0.nextWriteError = error }
    }

    /// Appends one framed line, first cutting off a torn tail as the file journal does.
    ///
    /// - Throws: ``JournalError/writeFailed(_:)`` when `line` contains a newline, or the armed failure.
    public func append(_ line: Data) throws(JournalError) {
        let framed = try JournalFraming.frame(line)
        try state.withLock { state throws(JournalError) in
            try Self.consumeWriteError(&state)
            if let last = state.bytes.last, last != JournalFraming.newline {
                state.bytes = state.bytes.prefix(JournalFraming.parse(state.bytes).intactLength)
            }
            state.bytes.append(framed)
        }
    }

    /// Every intact line, oldest first, and how many damaged lines were dropped; cuts off a damaged tail.
    public func read() throws(JournalError) -> JournalContents {
        state.withLock { state in
            let parsed = JournalFraming.parse(state.bytes)
            if parsed.hasDamagedTail { state.bytes = state.bytes.prefix(parsed.intactLength) }
            return JournalContents(lines: parsed.lines, droppedLines: parsed.dropped)
        }
    }

    /// Replaces every line with `lines`.
    ///
    /// - Throws: ``JournalError/writeFailed(_:)`` when a line contains a newline, or the armed failure.
    public func replaceAll(with lines: [Data]) throws(JournalError) {
        let content = try JournalFraming.frame(lines: lines)
        try state.withLock { state throws(JournalError) in
            try Self.consumeWriteError(&state)
            state.bytes = content
        }
    }

    /// Reads and writes as one step under the journal's lock, cutting off a damaged tail first.
    ///
    /// - Throws: the armed failure (nothing is written), ``JournalError/writeFailed(_:)`` when a line contains a
    ///   newline, or what `decide` throws.
    public func update(_ decide: (JournalContents) throws(JournalError) -> JournalWrite?) throws(JournalError) {
        try state.withLock { state throws(JournalError) in
            let parsed = JournalFraming.parse(state.bytes)
            if parsed.hasDamagedTail { state.bytes = state.bytes.prefix(parsed.intactLength) }
            let write = try decide(JournalContents(lines: parsed.lines, droppedLines: parsed.dropped))
            switch write {
            case nil:
                return
            case .append(let line):
                let framed = try JournalFraming.frame(line)
                try Self.consumeWriteError(&state)
                state.bytes.append(framed)
            case .appendLines(let lines):
                let framed = try JournalFraming.frame(lines: lines)
                try Self.consumeWriteError(&state)
                state.bytes.append(framed)
            case .replaceAll(let lines):
                let content = try JournalFraming.frame(lines: lines)
                try Self.consumeWriteError(&state)
                state.bytes = content
            }
        }
    }

    /// Throws and disarms the pending write failure, if any.
    private static func consumeWriteError(_ state: inout State) throws(JournalError) {
        if let error = state.nextWriteError {
            state.nextWriteError = nil
            throw error
        }
    }
}
