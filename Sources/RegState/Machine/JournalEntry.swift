import Foundation

/// One line of the journal: a sequence number, when the engine learned the fact, and the event.
package struct JournalEntry: Sendable, Equatable, Codable {
    /// 1-based position in the journal since the last clear-state.
    package var sequence: Int
    /// When the event was applied, by the service's clock.
    package var recordedAt: Date
    /// The event.
    package var event: MachineEvent

    /// Creates an entry.
    package init(sequence: Int, recordedAt: Date, event: MachineEvent) {
        self.sequence = sequence
        self.recordedAt = recordedAt
        self.event = event
    }

    /// The largest sequence number a journal line may carry: 2^53 − 1, the largest integer every JSON reader holds
    /// exactly. Counting on from it cannot overflow; a line beyond it (or below 1) is damaged and is not read.
    package static let maximumSequence = 9_007_199_254_740_991

    enum CodingKeys: String, CodingKey {
        case sequence = "seq"
        case recordedAt = "at"
        case event
    }

    /// Decodes an entry; a `seq` outside `1...maximumSequence`, a time or a clock offset out of range
    /// (`RecordedTime`, through ``decode(_:)``) is an error like any other damage.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let sequence = try container.decode(Int.self, forKey: .sequence)
        guard (1...Self.maximumSequence).contains(sequence) else {
            throw DecodingError.dataCorruptedError(forKey: .sequence, in: container,
                                                   debugDescription: "sequence out of range")
        }
        self.sequence = sequence
        recordedAt = try container.decode(Date.self, forKey: .recordedAt)
        event = try container.decode(MachineEvent.self, forKey: .event)
        // The one number of an event that is not a date (dates are checked by the decoder's strategy).
        if case .clockOffsetObserved(let seconds, _) = event, !RecordedTime.isOffset(seconds) {
            throw DecodingError.dataCorruptedError(forKey: .event, in: container,
                                                   debugDescription: "a clock offset out of range")
        }
    }

    /// The entry as one line of compact JSON (no newline).
    ///
    /// - Throws: ``JournalError/writeFailed(_:)`` when the encoder refuses the entry.
    package func encoded() throws(JournalError) -> Data {
        // A launch's two events are written directly (the same bytes), the rest through the encoder.
        if let line = JournalLineWriter.line(for: self) { return line }
        guard let line = try? RecordedTime.encoder().encode(self) else { throw .writeFailed("an entry cannot be encoded") }
        return line
    }

    /// Decodes one journal line.
    ///
    /// - Throws: `DecodingError` when the line is not an entry (a journal written by a newer version, say).
    package static func decode(_ line: Data) throws -> JournalEntry {
        // A launch's events are read directly (the same result), the rest through the decoder.
        if let entry = JournalLineReader.entry(line) { return entry }
        return try RecordedTime.decoder().decode(JournalEntry.self, from: line)
    }

    /// The state the entries fold to, from ``RegState/unsettled``; entries that do not apply are skipped.
    package static func fold(_ entries: [JournalEntry]) -> RegState {
        entries.reduce(RegState.unsettled, JournalRecorder.fold)
    }
}
