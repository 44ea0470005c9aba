import Foundation

/// Writes the service's events to its ``EventJournal``: numbering, appending, replaying at launch, compacting, and
/// clearing. Journal trouble is logged, never thrown: the journal is a record, not the source of the session.
///
/// A value owned by the service actor, which serialises every mutation.
struct JournalRecorder {
    /// Entries kept after the snapshot before compaction folds them into a new one: a launch replays at most this
    /// many entries (plus the snapshot) and the journal stays bounded however long the process runs.
    static let compactionThreshold = 32

    private let journal: any EventJournal
    private let clock: any RegStateClock
    private let logger: any RegStateLogger
    /// The sequence number of the last entry written (or replayed).
    private var sequence = 0
    /// The fold of everything journaled so far (snapshot plus entries): what the next snapshot holds.
    private var folded = RegState.unsettled
    /// Entries in the journal after its snapshot (or from its start).
    private var tail = 0

    init(journal: any EventJournal, clock: any RegStateClock, logger: any RegStateLogger) {
        self.journal = journal
        self.clock = clock
        self.logger = logger
    }

    /// The journal, oldest first.
    ///
    /// - Throws: ``JournalError`` when it cannot be read.
    /// After a compaction, the entries since the snapshot.
    func entries() throws -> [JournalEntry] {
        try journal.read().lines.compactMap { try? JournalEntry.decode($0) }
    }

    /// What the journal on disk folds to: its snapshot (if any), then the entries after it.
    ///
    /// - Throws: ``JournalError`` when it cannot be read.
    func storedFold() throws -> RegState {
        var lines = try journal.read().lines[...]
        let snapshot = lines.first.flatMap(JournalSnapshot.decode)
        if snapshot != nil { lines = lines.dropFirst() }
        return lines.compactMap { try? JournalEntry.decode($0) }.reduce(snapshot?.state ?? .unsettled, Self.fold)
    }

    /// Reads the journal (its snapshot, if any, then the entries after it), continues its numbering and returns the
    /// state it folds to; compacts a long tail. An unreadable journal starts fresh (``RegState/unsettled``).
    mutating func replay() -> RegState {
        do {
            let contents = try journal.read()
            if contents.droppedLines > 0 {
                logger.log(.warning, "journal: dropped \(contents.droppedLines) damaged line(s)")
            }
            var lines = contents.lines[...]
            let snapshot = lines.first.flatMap(JournalSnapshot.decode)
            if snapshot != nil { lines = lines.dropFirst() }
            let entries = lines.compactMap { try? JournalEntry.decode($0) }
            if entries.count < lines.count {
                logger.log(.warning, "journal: dropped \(lines.count - entries.count) unreadable entr(ies)")
            }
            sequence = max(snapshot?.sequence ?? 0, entries.map(\.sequence).max() ?? 0)
            folded = entries.reduce(snapshot?.state ?? .unsettled, Self.fold)
            tail = entries.count
            logger.log(.debug, "journal: replayed \(entries.count) event(s) to \(folded.caseName)")
            if tail > Self.compactionThreshold { compact() }
            return folded
        } catch {
            logger.log(.warning, "journal: unreadable, starting fresh (\(error.localizedDescription))")
            return .unsettled
        }
    }

    /// Appends `event` as the next entry.
    /// The numbering never passes ``JournalEntry/maximumSequence`` (the reader refuses larger values): at the cap the
    /// journal is folded into a snapshot numbered 0 first.
    mutating func record(_ event: MachineEvent) {
        if sequence >= JournalEntry.maximumSequence { renumber() }
        sequence += 1
        let entry = JournalEntry(sequence: sequence, recordedAt: clock.now(), event: event)
        do {
            try journal.append(try entry.encoded())
        } catch {
            // A full disk must not log the user out.
            logger.log(.warning, "journal: append failed (\(error.localizedDescription))")
        }
        folded = Self.fold(folded, entry)
        tail += 1
        if tail > Self.compactionThreshold { compact() }
    }

    /// Empties the journal and restarts the numbering (clear-state).
    mutating func reset() {
        do {
            try journal.replaceAll(with: [])
        } catch {
            logger.log(.warning, "journal: clear failed (\(error.localizedDescription))")
        }
        sequence = 0
        folded = .unsettled
        tail = 0
    }

    /// Restarts the numbering at the cap: the journal becomes one snapshot of the folded state numbered 0, so the
    /// state is unchanged and the next entry is 1.
    private mutating func renumber() {
        do {
            try journal.replaceAll(with: [try JournalSnapshot(sequence: 0, state: folded).encoded()])
            tail = 0
        } catch {
            logger.log(.warning, "journal: renumbering failed (\(error.localizedDescription))")
        }
        sequence = 0
        logger.log(.info, "journal: sequence reached its maximum, renumbered from a snapshot")
    }

    /// Folds the whole journal into one snapshot of the state now, so that nothing of the history stays: after a
    /// logout (or cleared credentials) the state is **D**, which holds no personal data, and the journal forgets the
    /// user (seed 002: "no record on this device of previous attempts to register").
    mutating func forgetHistory() {
        compact()
    }

    /// Replaces the journal with one snapshot of the folded state, atomically (old journal or new, never torn).
    private mutating func compact() {
        do {
            try journal.replaceAll(with: [try JournalSnapshot(sequence: sequence, state: folded).encoded()])
            tail = 0
        } catch {
            logger.log(.warning, "journal: compaction failed (\(error.localizedDescription))")
        }
    }

    /// One step of ``JournalEntry/fold(_:)``.
    private static func fold(_ state: RegState, _ entry: JournalEntry) -> RegState {
        (try? RegStateMachine.transition(from: state, on: entry.event).state) ?? state
    }
}
