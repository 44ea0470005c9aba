import Foundation
import RegState

/// The shared-journal world's invariants on the one file every process appends to (``SimulatedFileSystem``'s own
/// checks, `journal-intact` and `durable-writes`, cover it as they cover each process's journal).
extension SimulationRun {
    /// journal-shared, every step: each intact line of the shared file is an entry, or a snapshot on the first line
    /// only, and the sequence numbers increase strictly from the snapshot's down the file: no process appended under
    /// a number another had used, and no compaction dropped or reordered another process's lines.
    func checkSharedJournalFile() {
        guard let files = disk.fileSystem, let slot = slots.first,
            let data = files.contents(files.journalPath(slot))
        else { return }
        let lines = JournalFraming.parse(data).lines
        var last: Int?
        for (index, line) in lines.enumerated() {
            let number: Int?
            if let snapshot = Self.snapshotSequence(line) {
                guard index == 0 else {
                    return ledger.violation("journal-shared", "line \(index + 1) of the shared journal is a snapshot")
                }
                number = snapshot
                if sharedJournalSnapshot != snapshot {
                    sharedJournalSnapshot = snapshot
                    ledger.note("check shared journal compacted: snapshot at \(snapshot), \(lines.count - 1) line(s) after it")
                }
            } else if let entry = try? JournalEntry.decode(line) {
                number = entry.sequence
            } else {
                return ledger.violation("journal-shared", "line \(index + 1) of the shared journal is intact but no entry")
            }
            if let last, let number, number <= last {
                return ledger.violation("journal-shared", "line \(index + 1) of the shared journal has sequence \(number) "
                                        + "after \(last)")
            }
            last = number
        }
    }

    /// At the end: the entries a process reads from the shared journal are in strictly increasing order too.
    func checkSharedJournal(_ entries: [JournalEntry], incarnation: Int) {
        for (previous, next) in zip(entries, entries.dropFirst()) where next.sequence <= previous.sequence {
            return ledger.violation("journal-shared", "p\(incarnation) reads sequence \(next.sequence) after \(previous.sequence)")
        }
    }

    /// The sequence of a snapshot line (`{"snapshot":{..."seq":N...}}`), `nil` for any other line.
    static func snapshotSequence(_ line: Data) -> Int? {
        guard line.starts(with: Data(#"{"snapshot":"#.utf8)), let object = try? JSONValue.parse(line) else { return nil }
        return object["snapshot"]?["seq"]?.intValue
    }
}
