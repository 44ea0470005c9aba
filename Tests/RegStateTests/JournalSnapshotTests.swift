import Foundation
import Testing
@testable import RegState
import RegStateTesting

/// Launch independent of history: the journal is a snapshot of the folded state plus a bounded tail.
@Suite("Journal snapshot and compaction on append")
struct JournalSnapshotTests {
    private static let events: [MachineEvent] = [.launched(isNative: true), .storedTokensInspected(.nothing)]

    private func recorder(_ journal: any EventJournal) -> JournalRecorder {
        JournalRecorder(journal: journal, clock: ManualClock(), logger: SilentLogger())
    }

    @Test("a process that records forever keeps the journal bounded, and a replay folds to the same state")
    func boundedForever() throws {
        let journal = InMemoryJournal()
        var writer = recorder(journal)
        for index in 0..<2_000 { writer.record(Self.events[index % 2]) }
        let lines = try journal.read().lines
        #expect(lines.count <= JournalRecorder.compactionThreshold + 1)
        #expect(JournalSnapshot.decode(lines[0]) != nil, "the first line is the snapshot")
        var reader = recorder(journal)
        #expect(reader.replay() == .registrationRequired)
        reader.record(.launched(isNative: true))
        let last = try #require(try reader.entries().last)
        #expect(last.sequence == 2_001, "numbering continues across the snapshot")
    }

    @Test("a journal written before snapshots existed (100 plain entries) replays, then is compacted to the same fold")
    func oldJournalReplays() throws {
        let journal = InMemoryJournal()
        var entries: [JournalEntry] = []
        for index in 0..<100 {
            let entry = JournalEntry(sequence: index + 1, recordedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                     event: Self.events[index % 2])
            entries.append(entry)
            try journal.append(try entry.encoded())
        }
        var reader = recorder(journal)
        let state = reader.replay()
        #expect(state == JournalEntry.fold(entries))
        #expect(state == .registrationRequired)
        #expect(try journal.read().lines.count == 1, "a long old tail is folded into a snapshot at launch")
        var again = recorder(journal)
        #expect(again.replay() == state)
    }

    /// An in-memory journal whose atomic rewrite fails while `refusing` is set (a full disk at compaction time).
    final class RefusingRewrite: EventJournal {
        let base = InMemoryJournal()
        let refusing = LockedValue(true)
        func append(_ line: Data) throws(JournalError) { try base.append(line) }
        func read() throws(JournalError) -> JournalContents { try base.read() }
        func replaceAll(with lines: [Data]) throws(JournalError) {
            if refusing.withLock({ $0 }) { throw .writeFailed("disk full") }
            try base.replaceAll(with: lines)
        }
    }

    @Test("a failed compaction leaves the old journal whole; the next append tries again")
    func failedCompactionKeepsOld() throws {
        let journal = RefusingRewrite()
        var writer = recorder(journal)
        let count = JournalRecorder.compactionThreshold + 6
        for index in 0..<count { writer.record(Self.events[index % 2]) }
        #expect(try journal.read().lines.count == count, "every entry is still there")
        var reader = recorder(journal)
        #expect(reader.replay() == .registrationRequired)
        journal.refusing.withLock { $0 = false }
        writer.record(.launched(isNative: true))
        #expect(try journal.read().lines.count == 1)
        var after = recorder(journal)
        #expect(after.replay() == .unsettled)
    }

    @Test("a torn append after a snapshot on disk is dropped; the snapshot and intact entries replay")
    func tornTailAfterSnapshot() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-snap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("journal.log")
        var writer = recorder(try FileJournal(url: url))
        for index in 0...(JournalRecorder.compactionThreshold + 3) { writer.record(Self.events[index % 2]) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("0badf00d {\"at\":1,\"ev".utf8))
        try handle.close()
        var reader = recorder(try FileJournal(url: url))
        #expect(reader.replay() == .registrationRequired, "the snapshot, then the intact entries after it")
        let lines = try FileJournal(url: url).read().lines
        #expect(JournalSnapshot.decode(lines[0]) != nil)
        #expect(lines.count == 4, "snapshot + 3 entries; the torn line is cut off")
    }
}
