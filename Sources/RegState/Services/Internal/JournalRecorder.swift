import Foundation

/// Writes the service's events to its ``EventJournal``: numbering, appending, replaying at launch, compacting, and
/// clearing. Journal trouble is logged, never thrown: the journal is a record, not the source of the session.
///
/// A value owned by the service actor, which serialises every mutation.
struct JournalRecorder {
    /// Journal lines kept before compaction folds history down to the last launch.
    static let compactionThreshold = 1_000

    private let journal: any EventJournal
    private let clock: any RegStateClock
    private let logger: any RegStateLogger
    /// The sequence number of the last entry written (or replayed).
    private var sequence = 0

    init(journal: any EventJournal, clock: any RegStateClock, logger: any RegStateLogger) {
        self.journal = journal
        self.clock = clock
        self.logger = logger
    }

    /// The journal, oldest first.
    ///
    /// - Throws: ``JournalError`` when it cannot be read.
    func entries() throws -> [JournalEntry] {
        try journal.read().lines.compactMap { try? JournalEntry.decode($0) }
    }

    /// Reads the journal, continues its numbering and returns the state it folds to; compacts a long journal.
    /// An unreadable journal starts fresh (``RegState/unsettled``).
    mutating func replay() -> RegState {
        do {
            let contents = try journal.read()
            if contents.droppedLines > 0 {
                logger.log(.warning, "journal: dropped \(contents.droppedLines) damaged line(s)")
            }
            let entries = contents.lines.compactMap { try? JournalEntry.decode($0) }
            if entries.count < contents.lines.count {
                logger.log(.warning, "journal: dropped \(contents.lines.count - entries.count) unreadable entr(ies)")
            }
            sequence = entries.map(\.sequence).max() ?? 0
            let state = JournalEntry.fold(entries)
            logger.log(.debug, "journal: replayed \(entries.count) event(s) to \(state.caseName)")
            if entries.count > Self.compactionThreshold { compact(entries) }
            return state
        } catch {
            logger.log(.warning, "journal: unreadable, starting fresh (\(error.localizedDescription))")
            return .unsettled
        }
    }

    /// Appends `event` as the next entry.
    /// The numbering never passes ``JournalEntry/maximumSequence`` (the reader refuses larger values): at the cap the
    /// history from the last launch is renumbered from 1 first.
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
    }

    /// Empties the journal and restarts the numbering (clear-state).
    mutating func reset() {
        do {
            try journal.replaceAll(with: [])
        } catch {
            logger.log(.warning, "journal: clear failed (\(error.localizedDescription))")
        }
        sequence = 0
    }

    /// Rewrites the history from the last launch on (all of it when there is no launch) numbered 1, 2, 3 …; the fold
    /// reads entries in order, so the state is unchanged. Continues the numbering after the last kept entry.
    private mutating func renumber() {
        let entries = (try? entries()) ?? []
        let lastLaunch = entries.lastIndex(where: { if case .launched = $0.event { true } else { false } })
        let kept = entries[(lastLaunch ?? entries.startIndex)...].enumerated().map { offset, entry in
            JournalEntry(sequence: offset + 1, recordedAt: entry.recordedAt, event: entry.event)
        }
        do {
            try journal.replaceAll(with: kept.compactMap { try? $0.encoded() })
            sequence = kept.count
        } catch {
            logger.log(.warning, "journal: renumbering failed (\(error.localizedDescription))")
            sequence = 0
        }
        logger.log(.info, "journal: sequence reached its maximum, renumbered \(kept.count) entr(ies)")
    }

    /// Keeps the history from the last launch on: a launch resets the state, so the fold is unchanged.
    private func compact(_ entries: [JournalEntry]) {
        guard let lastLaunch = entries.lastIndex(where: { if case .launched = $0.event { true } else { false } }) else {
            return
        }
        let kept = entries[lastLaunch...].compactMap { try? $0.encoded() }
        do {
            try journal.replaceAll(with: kept)
        } catch {
            logger.log(.warning, "journal: compaction failed (\(error.localizedDescription))")
        }
    }
}
