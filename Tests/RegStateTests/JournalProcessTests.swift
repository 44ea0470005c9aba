import Foundation
import Testing
@testable import RegState
import RegStateTestSupport
import RegStateTesting

/// One journal written by several processes at once (issue 13): child processes, not threads. Each child records
/// through the engine's own recorder, which numbers and compacts under the journal's file lock.
@Suite("Journal shared between processes")
struct JournalProcessTests {
    static let writers = 4
    static let eventsPerWriter = 150

    @Test("Given 4 processes appending to one journal at once (with compactions), then every line reads, numbers are unique and increasing, and none is lost")
    func concurrentWritersKeepTheJournalWhole() async throws {
        let probe = try #require(BuiltProducts.executable("RegStateCrashProbe"), "RegStateCrashProbe not built")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-jp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.log").path
        let children = try (0..<Self.writers).map { _ in
            let process = Process()
            process.executableURL = probe
            process.arguments = ["--journal-writer", path, String(Self.eventsPerWriter)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let deadline = Date().addingTimeInterval(300)  // a bound for a loaded machine, not an expected time
        while children.contains(where: \.isRunning) && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        for child in children {
            try #require(!child.isRunning, "a writer did not finish within 300 s (a hang)")
            #expect(child.terminationStatus == 0)
        }
        let contents = try FileJournal(url: URL(fileURLWithPath: path)).read()
        #expect(contents.droppedLines == 0, "no torn or damaged line")
        var lines = contents.lines[...]
        let snapshot = lines.first.flatMap(JournalSnapshot.decode)
        if snapshot != nil { lines = lines.dropFirst() }
        let entries = lines.compactMap { try? JournalEntry.decode($0) }
        #expect(entries.count == lines.count, "every line after the snapshot is a readable entry")
        let numbers = (snapshot.map { [$0.sequence] } ?? []) + entries.map(\.sequence)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "numbers unique and increasing: \(numbers)")
        // Each append takes the number after the largest one present; a line dropped by a racing compaction would
        // have its number taken again, so the last number counts every event recorded by every process.
        #expect(numbers.last == Self.writers * Self.eventsPerWriter, "last number \(numbers.last ?? 0)")
        #expect(entries.count <= JournalRecorder.compactionThreshold)
    }

    @Test("a journal written by versions that numbered per process (duplicate numbers) replays, and the next entry numbers past the largest")
    func oldJournalWithDuplicateNumbersReads() throws {
        let journal = InMemoryJournal()
        for seq in [1, 2, 3, 14, 14, 15, 3] {
            try journal.append(Data(#"{"at":1800000000,"event":{"launched":{"isNative":true}},"seq":\#(seq)}"#.utf8))
        }
        var recorder = JournalRecorder(journal: journal, clock: SystemClock(), logger: SilentLogger())
        let old = try journal.read().lines.map { try JournalEntry.decode($0) }
        #expect(recorder.replay() == JournalEntry.fold(old), "replays in file order")
        recorder.record(.launched(isNative: false))
        let entries = try journal.read().lines.compactMap { try? JournalEntry.decode($0) }
        #expect(entries.count == 8, "every old line still reads")
        #expect(entries.last?.sequence == 16)
    }
}
