import Foundation

/// One line of the journal: a sequence number, when the engine learned the fact, and the event.
public struct JournalEntry: Sendable, Equatable, Codable {
    /// 1-based position in the journal since the last clear-state.
    public var sequence: Int
    /// When the event was applied, by the service's clock.
    public var recordedAt: Date
    /// The event.
    public var event: MachineEvent

    /// Creates an entry.
    public init(sequence: Int, recordedAt: Date, event: MachineEvent) {
        self.sequence = sequence
        self.recordedAt = recordedAt
        self.event = event
    }

    enum CodingKeys: String, CodingKey {
        case sequence = "seq"
        case recordedAt = "at"
        case event
    }

    /// The entry as one line of compact JSON (no newline).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(self)
    }

    /// Decodes one journal line.
    ///
    /// - Throws: `DecodingError` when the line is not an entry (a journal written by a newer version, say).
    public static func decode(_ line: Data) throws -> JournalEntry {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(JournalEntry.self, from: line)
    }

    /// The state the entries fold to, from ``RegState/unsettled``; entries that do not apply are skipped.
    public static func fold(_ entries: [JournalEntry]) -> RegState {
        entries.reduce(RegState.unsettled) { state, entry in
            (try? RegStateMachine.transition(from: state, on: entry.event).state) ?? state
        }
    }
}
