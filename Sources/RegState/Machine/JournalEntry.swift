import Foundation

/// One line of the journal: a sequence number, when the engine learned the fact, and the event.
package struct JournalEntry: Sendable, Equatable {
    /// 1-based position in the journal since the last clear-state.
    package var sequence: Int
    /// When the event was applied, by the service's clock.
    package var recordedAt: Date
    package var event: MachineEvent

    package init(sequence: Int, recordedAt: Date, event: MachineEvent) {
        self.sequence = sequence
        self.recordedAt = recordedAt
        self.event = event
    }

    /// The largest sequence number a journal line may carry: 2^53 − 1, which every JSON reader holds exactly.
    package static let maximumSequence = 9_007_199_254_740_991

    /// The entry as one line of compact JSON (no newline): `{"at":seconds,"event":{...},"seq":N}`.
    /// - Throws: ``JournalError/writeFailed(_:)`` when the entry holds a time JSON cannot write.
    package func encoded() throws(JournalError) -> Data {
        var line = JSONText()
        guard line.value(.members(["at": recordedAt, "event": event, "seq": sequence])) else {
            throw .writeFailed("an entry cannot be encoded")
        }
        return line.data
    }

    /// Reads one journal line; a `seq` outside `1...maximumSequence` or a time out of range is damage like any other.
    /// - Throws: ``JournalError/unreadable(_:)`` when the line is not an entry (damaged, or a newer version's).
    package static func decode(_ line: Data) throws(JournalError) -> JournalEntry {
        do {
            let fields = try JSONFields(parsing: line)
            let entry = JournalEntry(sequence: try fields.value("seq"), recordedAt: try fields.value("at"),
                                     event: try fields.value("event"))
            if case .clockOffsetObserved(let seconds, _) = entry.event, !RecordedTime.isOffset(seconds) {
                throw JSONFields.Damaged()
            }
            guard (1...maximumSequence).contains(entry.sequence) else { throw JSONFields.Damaged() }
            return entry
        } catch {
            throw .unreadable("a line is not a journal entry")
        }
    }

    /// The state the entries fold to, from ``RegState/unsettled``; entries that do not apply are skipped.
    package static func fold(_ entries: [JournalEntry]) -> RegState {
        entries.reduce(RegState.unsettled, JournalRecorder.fold)
    }
}
