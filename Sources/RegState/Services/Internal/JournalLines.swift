import Foundation

/// What the engine reads from a journal's lines: its snapshot (the first line, if it is one), the entries after it,
/// the largest sequence number anywhere, and how many lines follow the snapshot.
///
/// Appending needs only the numbers, so entries are decoded in full only when asked (replay, compaction); the
/// numbers come from a decoder that reads `seq` alone.
struct JournalLines {
    /// The snapshot the journal starts with, when it does (decoded only with `decodingEntries`).
    private(set) var snapshot: JournalSnapshot?
    /// The readable entries after the snapshot, in file order (only with `decodingEntries`).
    private(set) var entries: [JournalEntry] = []
    /// Lines after the snapshot that are not readable entries.
    private(set) var unreadable = 0
    /// The largest sequence number of the snapshot and the readable entries; 0 for an empty journal.
    private(set) var lastSequence = 0
    /// Lines after the snapshot (readable or not): what compaction bounds.
    let tailCount: Int

    init(_ lines: [Data], decodingEntries: Bool) {
        var rest = lines[...]
        if let first = rest.first, first.starts(with: Self.snapshotPrefix) {
            if decodingEntries {
                snapshot = JournalSnapshot.decode(first)
                lastSequence = snapshot?.sequence ?? 0
            } else {
                lastSequence = (try? Self.decoder.decode(SnapshotNumber.self, from: first))?.snapshot.seq ?? 0
            }
            rest = rest.dropFirst()
        }
        tailCount = rest.count
        for line in rest {
            if decodingEntries {
                guard let entry = try? JournalEntry.decode(line) else { unreadable += 1; continue }
                entries.append(entry)
                lastSequence = max(lastSequence, entry.sequence)
            } else if let number = try? Self.decoder.decode(EntryNumber.self, from: line).seq,
                      (1...JournalEntry.maximumSequence).contains(number) {
                lastSequence = max(lastSequence, number)
            }
        }
    }

    /// The state the snapshot and the entries fold to.
    var folded: RegState { entries.reduce(snapshot?.state ?? .unsettled, JournalRecorder.fold) }

    private static let snapshotPrefix = Data(#"{"snapshot":"#.utf8)
    private static let decoder = JSONDecoder()

    /// The number of an entry line, read without decoding its event.
    private struct EntryNumber: Decodable { var seq: Int }
    /// The number of a snapshot line, read without decoding its state.
    private struct SnapshotNumber: Decodable {
        struct Inner: Decodable { var seq: Int }
        var snapshot: Inner
    }
}
