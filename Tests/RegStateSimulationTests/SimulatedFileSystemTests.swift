#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState
@testable import RegStateSimulation
import Testing

/// The simulated file system under the REAL `FileSecureStore` and `FileJournal`: a crash at every system call of a
/// write, with and without a power loss, full disks, and locks released by dying processes.
@Suite("Simulated file system")
struct SimulatedFileSystemTests {
    static let storePath = "/sim/store"
    static let journalPath = "/sim/journal.log"

    /// A file system holding `old` under "credentials" (written durably by process 0), and the processes it killed.
    static func world(seed: UInt64, old: Data?) throws -> (SimulatedFileSystem, KilledList) {
        let killed = KilledList()
        let fs = SimulatedFileSystem(random: SeededRandom(seed: seed), ledger: Ledger()) { killed.insert($0) }
        if let old {
            try FileSecureStore(directoryPath: storePath, fileSystem: fs.calls(for: 0)).set(old, forKey: "credentials")
        }
        return (fs, killed)
    }

    /// How many system calls one store write makes (opening the store included), measured on a fault-free world.
    static func callsOfOneWrite() throws -> Int {
        let (fs, _) = try world(seed: 1, old: Data("old".utf8))
        let before = fs.systemCalls
        let store = try FileSecureStore(directoryPath: storePath, fileSystem: fs.calls(for: 1))
        try store.set(Data("new".utf8), forKey: "credentials")
        return fs.systemCalls - before
    }

    @Test("Given a crash at each system call of a store write, with or without power loss, then a new process reads old or new",
          arguments: [false, true])
    func crashAtEveryCall(powerLoss: Bool) throws {
        let old = Data("old value".utf8), new = Data(String(repeating: "new value ", count: 40).utf8)
        let total = try Self.callsOfOneWrite()
        #expect(total > 8)
        var outcomes: [String: Int] = [:]
        var crashes = 0
        for index in 1...total {
            for seed in 1...6 as ClosedRange<UInt64> {
                let (fs, killed) = try Self.world(seed: seed, old: old)
                fs.crash(atCall: index, powerLoss: powerLoss)
                // The crash may hit a call whose error the code ignores (a close in a `defer`): the write then returns,
                // but the process is dead all the same.
                let writer = try? FileSecureStore(directoryPath: Self.storePath, fileSystem: fs.calls(for: 1))
                _ = try? writer?.set(new, forKey: "credentials")
                guard killed.contains(1) else { continue }  // Short writes vary the count: this write made fewer calls.
                crashes += 1
                let reader = try FileSecureStore(directoryPath: Self.storePath, fileSystem: fs.calls(for: 2))
                let value = try reader.data(forKey: "credentials")
                #expect(value == old || value == new, "call \(index), seed \(seed): torn value \(value?.count ?? -1) bytes")
                #expect(try reader.keys() == ["credentials"])
                // Opening the store (under its lock) removed any temporary file the dead writer left.
                #expect(try fs.calls(for: 3).directoryEntries("/sim/store").filter { $0.hasPrefix(".regstate-tmp") }.isEmpty)
                outcomes[value == new ? "new" : "old", default: 0] += 1
            }
        }
        // Both outcomes happen: crashes before the rename keep the old value, crashes after it keep the new one.
        #expect(outcomes["old", default: 0] > 0 && outcomes["new", default: 0] > 0, "\(outcomes)")
        #expect(crashes >= (total - 1) * 6)
    }

    @Test("Given a file renamed in without fsync, when the power goes, then the model can lose its bytes (what the store's fsync prevents)")
    func skippedSyncIsVisible() throws {
        var lost = 0
        for seed in 1...40 as ClosedRange<UInt64> {
            let (fs, _) = try Self.world(seed: seed, old: Data("old".utf8))
            let calls = fs.calls(for: 1)
            let fd = try calls.open("/sim/store/.tmp", O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
            try calls.writeFully(fd, Data("a new record".utf8))
            try calls.close(fd)
            try calls.rename("/sim/store/.tmp", to: "/sim/store/credentials")
            try calls.syncDirectory("/sim/store")
            fs.cutPower()
            let value = fs.contents("/sim/store/credentials")
            #expect(value != Data("old".utf8), "the directory was synced: the rename is durable")
            if value != Data("a new record".utf8) { lost += 1 }
        }
        #expect(lost > 0)
    }

    @Test("Given a crash at each system call of a journal append, then the journal reads its old lines, maybe the new one, and appends again",
          arguments: [false, true])
    func journalCrashAtEveryCall(powerLoss: Bool) throws {
        let lines = (1...3).map { Data("line \($0)".utf8) }
        let new = Data(String(repeating: "new line ", count: 30).utf8)
        var crashes = 0
        for index in 1...14 {
            let (fs, killed) = try Self.world(seed: UInt64(index), old: nil)
            let first = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 0))
            for line in lines { try first.append(line) }
            let writer = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 1))
            fs.crash(atCall: index, powerLoss: powerLoss)
            _ = try? writer.append(new)
            guard killed.contains(1) else { continue }  // The append finished in fewer calls.
            crashes += 1
            let reader = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 2))
            let read = try reader.read().lines
            #expect(read == lines || read == lines + [new], "call \(index): \(read.count) lines")
            try reader.append(Data("after".utf8))
            #expect(try reader.read().lines.last == Data("after".utf8))
            #expect(try reader.read().droppedLines == 0)
        }
        #expect(crashes >= 8)
    }

    @Test("Given a multi-line journal append cut by a power loss, then durable-writes accepts any whole-line prefix of it")
    func tornMultiLineAppendIsNoViolation() throws {
        // Seed 541203867 (dst4): the power went at the fsync of an `appendLines` write and kept 2 of its lines, which
        // the contract of JournalWrite.appendLines allows; durable-writes reported it as a lost returned write.
        let old = (1...3).map { Data("line \($0)".utf8) }
        let new = (1...6).map { Data(String(repeating: "new line \($0) ", count: 8).utf8) }
        var partial = 0
        for seed in 1...30 as ClosedRange<UInt64> {
            let ledger = Ledger()
            let fs = SimulatedFileSystem(random: SeededRandom(seed: seed), ledger: ledger) { _ in }
            fs.watch(Self.journalPath, journal: true)
            let file = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 1))
            let journal = RecordingJournal(journal: file, fileSystem: fs)
            for line in old { try journal.append(line) }
            var written = false
            try? journal.update { _ in
                written = true
                fs.crash(atCall: 2, powerLoss: true)  // The call after the (first) write: its fsync.
                return .appendLines(new)
            }
            #expect(written)
            let read = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 2)).read().lines
            #expect(read.count >= old.count && Array(read.prefix(old.count)) == old)
            #expect(Array(read.dropFirst(old.count)) == Array(new.prefix(read.count - old.count)))
            if read.count > old.count, read.count < old.count + new.count { partial += 1 }
            #expect(ledger.violations.filter { $0.contains("durable-writes") }.isEmpty, "seed \(seed): \(ledger.violations)")
        }
        #expect(partial > 0)
    }

    @Test("Given the real store and journal, when a write returns and then the power goes, then the write is there")
    func returnedWritesSurvivePowerLoss() throws {
        for seed in 1...20 as ClosedRange<UInt64> {
            let (fs, killed) = try Self.world(seed: seed, old: Data("old".utf8))
            let store = try FileSecureStore(directoryPath: Self.storePath, fileSystem: fs.calls(for: 1))
            let journal = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 1))
            try store.set(Data("new".utf8), forKey: "credentials")
            try journal.append(Data("one".utf8))
            try journal.replaceAll(with: [Data("two".utf8), Data("three".utf8)])
            try journal.append(Data("four".utf8))
            try store.set(Data("later".utf8), forKey: "other")
            try store.removeValue(forKey: "other")
            fs.cutPower()
            #expect(killed.contains(1))
            let reader = try FileSecureStore(directoryPath: Self.storePath, fileSystem: fs.calls(for: 2))
            #expect(try reader.data(forKey: "credentials") == Data("new".utf8))
            #expect(try reader.keys() == ["credentials"])
            let lines = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 2)).read()
            #expect(lines.lines == ["two", "three", "four"].map { Data($0.utf8) } && lines.droppedLines == 0)
        }
    }

    @Test("Given a compaction renamed in by a process that died before its directory fsync, when another appends and the power goes, then the append is there")
    func appendAfterUnsyncedCompactionSurvives() throws {
        // Seed 7179832201: a logout's compaction died between its rename and the directory fsync; the next process's
        // appends were fsynced into the new file, whose name was not durable, and the power loss brought back the old.
        for seed in 1...20 as ClosedRange<UInt64> {
            let (fs, killed) = try Self.world(seed: seed, old: nil)
            let old = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 0))
            for line in ["one", "two", "three"] { try old.append(Data(line.utf8)) }
            let dying = fs.calls(for: 1)
            try FileJournal(path: "/sim/.compacted", fileSystem: dying).append(Data("compacted".utf8))
            try dying.rename("/sim/.compacted", to: Self.journalPath)
            fs.kill(1)  // Before its directory fsync.
            let next = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 2))
            try next.append(Data("after".utf8))
            fs.cutPower()
            #expect(killed.contains(2))
            let lines = try FileJournal(path: Self.journalPath, fileSystem: fs.calls(for: 3)).read().lines
            #expect(lines == ["compacted", "after"].map { Data($0.utf8) }, "seed \(seed): \(lines.count) lines")
        }
    }

    @Test("Given a full disk, when a process writes, then the write fails, the old value stays, and removal still works")
    func fullDisk() throws {
        let (fs, _) = try Self.world(seed: 3, old: Data("old".utf8))
        let store = try FileSecureStore(directoryPath: Self.storePath, fileSystem: fs.calls(for: 1))
        fs.writeFailurePercent = 100
        #expect(throws: StoreError.self) { try store.set(Data("new".utf8), forKey: "credentials") }
        #expect(try store.data(forKey: "credentials") == Data("old".utf8))
        try store.removeValue(forKey: "credentials")
        #expect(try store.data(forKey: "credentials") == nil)
    }

    @Test("Given a process holding the store's lock, when it dies, then another process takes the lock")
    func lockPassesOnDeath() async throws {
        let (fs, _) = try Self.world(seed: 4, old: nil)
        let holder = try FileSecureStore(directoryPath: Self.storePath, fileSystem: fs.calls(for: 1))
        let other = try FileSecureStore(directoryPath: Self.storePath, fileSystem: fs.calls(for: 2))
        let lease = try await holder.acquireExclusiveAccess(timeout: 1)
        await #expect(throws: StoreError.busy(waited: 0.05)) { try await other.acquireExclusiveAccess(timeout: 0.05) }
        fs.kill(1)
        let second = try await other.acquireExclusiveAccess(timeout: 0.05)
        second.release()
        lease.release()  // A dead process's late release is harmless.
    }
}

/// The processes a crash killed.
final class KilledList: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var killed: Set<Int> = []
    func insert(_ process: Int) { lock.withLock { _ = killed.insert(process) } }
    func contains(_ process: Int) -> Bool { lock.withLock { killed.contains(process) } }
}
