import Foundation

/// Writes the service's events to its ``EventJournal``: numbering, appending, replaying at launch, compacting, and
/// clearing. Journal trouble is logged, never thrown: the journal is a record, not the source of the session. Every
/// append holds the journal's lock (``EventJournal/update(_:)``), for processes sharing it (docs/Guarantees.md).
package struct JournalRecorder {
    /// Entries kept after the snapshot before compaction folds them into a new one: a launch replays at most this
    /// many entries (plus the snapshot) and the journal stays bounded however long the process runs.
    static let compactionThreshold = 32

    private let journal: any EventJournal
    private let clock: any RegStateClock
    private let logger: any RegStateLogger

    /// The clock offset (seconds) the replayed journal noted last (``MachineEvent/clockOffsetObserved(seconds:source:)``),
    /// so that a relaunch does not note the same offset again.
    package private(set) var lastClockOffset: Int?
    /// The lines the last append read and their numbers: the next append reads only the lines after them.
    private var numbered: (lines: [Data], numbers: JournalLines)?

    package init(journal: any EventJournal, clock: any RegStateClock, logger: any RegStateLogger) {
        self.journal = journal
        self.clock = clock
        self.logger = logger
    }

    /// The journal, oldest first (after a compaction, the entries since the snapshot).
    mutating func entries() throws(JournalError) -> [JournalEntry] {
        var decoded: [Data: JournalEntry] = [:]
        let entries = try journal.read().lines.compactMap { line -> JournalEntry? in
            guard let entry = lastEntries[line] ?? (try? JournalEntry.decode(line)) else { return nil }
            decoded[line] = entry
            return entry
        }
        lastEntries = decoded
        return entries
    }

    /// The entries the last ``entries()`` decoded, by line: a caller that reads the journal again and again (a
    /// monitor, the simulation's checks) decodes each line once. Only the last read's lines are kept.
    private var lastEntries: [Data: JournalEntry] = [:]

    /// How many lines after the snapshot are not readable entries (damaged, out of range, a newer version's).
    func unreadableEntryCount() throws(JournalError) -> Int {
        JournalLines(try journal.read().lines, decodingEntries: true).unreadable
    }

    /// What the journal on disk folds to: its snapshot (if any), then the entries after it.
    func storedFold() throws -> RegState {
        JournalLines(try journal.read().lines, decodingEntries: true).folded
    }

    /// What a launch does with the journal: reads it (cutting a torn tail), reports damaged and unreadable lines and
    /// compacts a long tail, reading entries for their numbers only: `launched` resets every state, so no fold.
    package mutating func openAtLaunch() {
        do {
            let contents = try journal.read()
            if contents.droppedLines > 0 {
                logger.log(.warning, "journal: dropped \(contents.droppedLines) damaged line(s)")
            }
            let parsed = JournalLines(contents.lines, decodingEntries: false)
            if parsed.unreadable > 0 {
                logger.log(.warning, "journal: dropped \(parsed.unreadable) unreadable entr(ies)")
            }
            logger.log(.debug, "journal: \(parsed.tailCount) line(s) after the snapshot, last number \(parsed.lastSequence)")
            lastClockOffset = Self.lastClockOffset(in: contents.lines)
            if parsed.tailCount > Self.compactionThreshold { compact() }
        } catch {
            logger.log(.warning, "journal: unreadable, starting fresh (\(error.localizedDescription))")
        }
    }

    /// The offset of the last `clockOffsetObserved` line: only the newest line that names the event is decoded.
    private static func lastClockOffset(in lines: [Data]) -> Int? {
        let marker = Data("clockOffsetObserved".utf8)
        for line in lines.reversed() where line.range(of: marker) != nil {
            if let entry = try? JournalEntry.decode(line), case .clockOffsetObserved(let seconds, _) = entry.event {
                return seconds
            }
        }
        return nil
    }

    /// Events held back to be written with the next one (the launch's `launched`): one `fsync` for the launch's
    /// entries. A crash before that write loses them whole, as if the process had died a moment earlier.
    private var pending: [(event: MachineEvent, at: Date)] = []

    /// Holds `event` back to be appended together with the next recorded event (or at ``flush()``).
    package mutating func recordWithNext(_ event: MachineEvent) {
        pending.append((event, clock.now()))
    }

    /// Appends the held-back events, if any, now.
    package mutating func flush() {
        guard !pending.isEmpty else { return }
        write([])
    }

    /// Appends `event` as the next entry, numbered one past the largest number in the journal (after any held-back
    /// events, in the same append); at ``JournalEntry/maximumSequence`` the journal is first folded into a snapshot
    /// numbered 0. An event that ends the session forgets the user in the same write (``Forgetting``), so no crash
    /// leaves the end of a session on disk beside the personal data it should have taken away.
    package mutating func record(_ event: MachineEvent) {
        write([(event, clock.now())], forgetting: Forgetting(after: event))
    }

    private mutating func write(_ events: [(event: MachineEvent, at: Date)], forgetting: Forgetting? = nil) {
        let batch = pending + events
        pending = []
        var renumbered = false
        var compactionDue = false
        do {
            var memo = numbered
            defer { numbered = memo }
            try journal.update { contents throws(JournalError) in
                let lines = JournalLines.numbers(of: contents.lines, continuing: memo)
                memo = (contents.lines, lines)
                if lines.lastSequence > JournalEntry.maximumSequence - batch.count {
                    renumbered = true
                    let state = JournalLines(contents.lines, decodingEntries: true).folded
                    return .replaceAll([try JournalSnapshot(sequence: 0, state: state).encoded()]
                                       + (try Self.lines(of: batch, from: 1)))
                }
                if let forgetting {
                    return .replaceAll(try Self.forget(forgetting, in: JournalLines(contents.lines, decodingEntries: true),
                                                       appending: batch))
                }
                let written = try Self.lines(of: batch, from: lines.lastSequence + 1)
                compactionDue = lines.tailCount + batch.count > Self.compactionThreshold
                if written.count == 1, let line = written.first { return .append(line) }
                return .appendLines(written)
            }
        } catch {
            // A full disk must not log the user out.
            logger.log(.warning, "journal: append failed (\(error.localizedDescription))")
        }
        // Appended first, folded after: a failed compaction leaves every entry in place.
        if compactionDue { compact() }
        if renumbered { logger.log(.info, "journal: sequence reached its maximum, renumbered from a snapshot") }
    }

    /// `batch` as journal lines, numbered from `first`.
    private static func lines(of batch: [(event: MachineEvent, at: Date)], from first: Int) throws(JournalError)
        -> [Data]
    {
        try batch.enumerated().map { offset, item throws(JournalError) in
            try JournalEntry(sequence: first + offset, recordedAt: item.at, event: item.event).encoded()
        }
    }

    /// Empties the journal and restarts the numbering (clear-state).
    mutating func reset() {
        do {
            try journal.replaceAll(with: [])
        } catch {
            logger.log(.warning, "journal: clear failed (\(error.localizedDescription))")
        }
    }

    /// The journal's lines once `batch` (ending the session) is appended and the user forgotten: after a logout one
    /// snapshot of **D**, which holds no personal data ("no record on this device of previous attempts to register");
    /// after a final **E** or a forced logout every line without personal data (``PersonalDataRedaction``), numbers,
    /// dates and reasons kept, so the journal still says why the session ended.
    private static func forget(_ forgetting: Forgetting, in lines: JournalLines,
                               appending batch: [(event: MachineEvent, at: Date)]) throws(JournalError) -> [Data] {
        let appended = batch.enumerated().map { offset, item in
            JournalEntry(sequence: lines.lastSequence + offset + 1, recordedAt: item.at, event: item.event)
        }
        switch forgetting {
        case .history:
            let state = appended.reduce(lines.folded, fold)
            return [try JournalSnapshot(sequence: lines.lastSequence + appended.count, state: state).encoded()]
        case .personalData:
            var written: [Data] = []
            if let snapshot = lines.snapshot {
                written.append(try JournalSnapshot(sequence: snapshot.sequence,
                                                   state: PersonalDataRedaction.state(snapshot.state)).encoded())
            }
            for entry in lines.entries + appended {
                written.append(try JournalEntry(sequence: entry.sequence, recordedAt: entry.recordedAt,
                                                event: PersonalDataRedaction.event(entry.event)).encoded())
            }
            return written
        }
    }

    /// Replaces the journal with one snapshot of everything in it, atomically (old journal or new, never torn), under
    /// the journal's lock so that a line another process appends meanwhile is either folded in or written after.
    private func compact() {
        do {
            try journal.update { contents throws(JournalError) in
                let lines = JournalLines(contents.lines, decodingEntries: true)
                guard lines.tailCount > Self.compactionThreshold else { return nil }
                return .replaceAll([try JournalSnapshot(sequence: lines.lastSequence, state: lines.folded).encoded()])
            }
        } catch {
            logger.log(.warning, "journal: compaction failed (\(error.localizedDescription))")
        }
    }

    /// One step of ``JournalEntry/fold(_:)``.
    static func fold(_ state: RegState, _ entry: JournalEntry) -> RegState {
        (try? RegStateMachine.transition(from: state, on: entry.event).state) ?? state
    }
}
