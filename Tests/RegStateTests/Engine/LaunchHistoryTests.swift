import Foundation
import Testing
@testable import RegState
import RegStateTesting

/// Launch independent of history (issue 19): however long a device has been renewing, and whatever an old-format
/// journal held, a launch reads a snapshot and a bounded tail, never the history.
@Suite("Launch reads a bounded journal")
struct LaunchHistoryTests {
    /// The most lines a launch may read: the snapshot plus the tail compaction allows.
    private static let bound = RegStateService.journalCompactionThreshold + 1

    /// A file journal that remembers how many lines each read returned.
    final class CountingJournal: EventJournal {
        let file: FileJournal
        let reads = LockedValue<[Int]>([])
        init(_ url: URL) throws { file = try FileJournal(url: url) }
        func append(_ line: Data) throws(JournalError) { try file.append(line) }
        func read() throws(JournalError) -> JournalContents {
            let contents = try file.read()
            reads.withLock { $0.append(contents.lines.count) }
            return contents
        }
        func replaceAll(with lines: [Data]) throws(JournalError) { try file.replaceAll(with: lines) }
    }

    private static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func launch(_ device: SimulatedDevice, _ journal: any EventJournal) -> RegStateService {
        RegStateService(configuration: device.configuration, dependencies: RegStateDependencies(
            store: device.store, journal: journal, transport: device.simulator.transport, clock: device.clock))
    }

    @Test("a device that renewed 100 times relaunches reading at most threshold + 1 journal lines, to Active B")
    func longRenewingDevice() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try SimulatedDevice()
        let journal = try CountingJournal(directory.appendingPathComponent("journal.log"))
        let service = Self.launch(device, journal)
        await service.start()
        try await device.signIn(service)
        try await service.confirmRegistration()
        for _ in 0..<100 { await service.renewSession() }
        #expect(await service.state.letter == "C")
        #expect(try journal.read().lines.count <= Self.bound, "the journal stays bounded while the process runs")

        let counted = try CountingJournal(directory.appendingPathComponent("journal.log"))
        let relaunched = Self.launch(device, counted)
        #expect(await relaunched.start().letter == "B")
        let launchRead = try #require(counted.reads.withLock { $0.first })
        #expect(launchRead <= Self.bound, "launch read \(launchRead) lines after 200 renewal events")
        let last = try #require(try await relaunched.journalEntries().last)
        #expect(last.sequence > 200, "numbering continues across snapshots")
    }

    @Test("an old-format journal of 5,000 plain lines is read once, folded into a snapshot, and the next launch reads at most threshold + 1")
    func oldLongJournal() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try SimulatedDevice()
        let registered = try await device.registeredService()
        let stored = try #require(await registered.runner.tokens.storedSession())
        // What the previous format left: one checksummed line per event since the first launch, no snapshot.
        let url = directory.appendingPathComponent("journal.log")
        let old = try (0..<5_000).map { index in
            let event: MachineEvent = index % 2 == 0 ? .launched(isNative: true) : .storedTokensInspected(.valid(stored))
            return try JournalEntry(sequence: index + 1, recordedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                    event: event).encoded()
        }
        try FileJournal(url: url).replaceAll(with: old)

        let first = try CountingJournal(url)
        #expect(await Self.launch(device, first).start().letter == "B")
        #expect(first.reads.withLock { $0.first } == 5_000, "the old journal is still read, whole, once")
        let compacted = try FileJournal(url: url).read().lines
        #expect(compacted.count <= Self.bound)
        #expect(JournalSnapshot.decode(compacted[0])?.sequence ?? 0 >= 5_000, "the snapshot folds the old history")

        let second = try CountingJournal(url)
        let relaunched = Self.launch(device, second)
        #expect(await relaunched.start().letter == "B")
        let launchRead = try #require(second.reads.withLock { $0.first })
        #expect(launchRead <= Self.bound)
        let entries = try await relaunched.journalEntries()
        #expect(entries.allSatisfy { $0.sequence > 5_000 }, "numbering continues after the old history")
    }

    /// A file journal that remembers every write its ``EventJournal/update(_:)`` made (each one `fsync`ed once).
    final class WriteCountingJournal: EventJournal {
        let file: FileJournal
        let writes = LockedValue<[JournalWrite]>([])
        init(_ url: URL) throws { file = try FileJournal(url: url) }
        func append(_ line: Data) throws(JournalError) { try file.append(line) }
        func read() throws(JournalError) -> JournalContents { try file.read() }
        func replaceAll(with lines: [Data]) throws(JournalError) { try file.replaceAll(with: lines) }
        func update(_ decide: (JournalContents) throws(JournalError) -> JournalWrite?) throws(JournalError) {
            try file.update { contents throws(JournalError) in
                let write = try decide(contents)
                if let write { writes.withLock { $0.append(write) } }
                return write
            }
        }
    }

    @Test("a launch to Active B writes its two entries (launched, stored tokens inspected) in one durable append")
    func launchEntriesInOneAppend() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try SimulatedDevice()
        _ = try await device.registeredService()
        let journal = try WriteCountingJournal(directory.appendingPathComponent("journal.log"))
        #expect(await Self.launch(device, journal).start().letter == "B")
        let writes = journal.writes.withLock { $0 }
        #expect(writes.count == 1, "one append (one fsync) for the launch, got \(writes.count)")
        guard case .appendLines(let lines)? = writes.first else {
            Issue.record("expected one multi-line append, got \(writes)")
            return
        }
        let entries = lines.compactMap { try? JournalEntry.decode($0) }
        #expect(entries.map(\.event.name) == ["launched", "storedTokensInspected"])
        #expect(entries.map(\.sequence) == [1, 2])
        let onDisk = try FileJournal(url: journal.file.url).read().lines.compactMap { try? JournalEntry.decode($0) }
        #expect(onDisk.map(\.sequence) == [1, 2], "both lines are on disk when start() returns")
    }
}
