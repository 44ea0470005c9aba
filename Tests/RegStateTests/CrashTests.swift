#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegStateTestSupport
import RegState
import Testing

/// The `record` value the probe stores (see `Sources/RegStateCrashProbe/main.swift`).
private struct CrashProbeRecord: Decodable {
    var seq: Int
    var filler: String
    var digest: String
}

/// One journal line of the probe.
private struct CrashProbeLine: Decodable {
    var seq: Int
}

/// What one killed run left behind, for the summary.
private struct CrashOutcome {
    var storeSeq: Int
    var journalSeq: Int
    var droppedLines: Int
    var leftoverTemporaryFiles: Int
}

/// Kills the crash probe at random moments and checks that the store and the journal it was rewriting are intact.
///
/// Layout: 20 fresh directories, 5 runs killed in each (100 runs). Fresh directories cover the very first write (the
/// only time `record` may be absent); the runs accumulating in one directory start from the previous run's crash
/// debris (temporary files, a possibly torn journal tail), so they check that opening after a crash recovers and
/// that sequence numbers keep increasing across crashes (the probe resumes after its last journaled number).
///
/// SIGKILL tests atomicity against a process crash (the page cache survives); it does not simulate power loss, for
/// which the `fsync` calls are the (untested here) answer.
@Suite("Crash safety", .serialized)
struct CrashTests {
    static let directories = 20
    static let runsPerDirectory = 5

    @Test("a probe killed at random leaves a complete record and a journal that reads and appends cleanly")
    func killedProbeLeavesConsistentState() async throws {
        let probe = try #require(BuiltProducts.executable("RegStateCrashProbe"), "RegStateCrashProbe not found next to the tests or in .build/debug")
        let started = ContinuousClock.now
        var outcomes: [CrashOutcome] = []
        try await withStorageScratch { scratch in
            for directory in 0..<Self.directories {
                let root = scratch.appendingPathComponent("probe-\(directory)", isDirectory: true)
                var previous: CrashOutcome?
                for _ in 0..<Self.runsPerDirectory {
                    let leftovers = try await Self.runAndKill(probe, root: root, log: scratch)
                    // Until one run has written the record (a kill can land before the first write, run after run), it may be absent.
                    let nothingWrittenYet = previous.map { $0.storeSeq == 0 } ?? true
                    let outcome = try Self.verify(root: root, mayBeAbsent: nothingWrittenYet, leftovers: leftovers)
                    if let previous {
                        #expect(outcome.journalSeq >= previous.journalSeq)
                        #expect(outcome.storeSeq >= previous.storeSeq)
                    }
                    previous = outcome
                    outcomes.append(outcome)
                }
            }
        }
        #expect(outcomes.count == Self.directories * Self.runsPerDirectory)
        let between = outcomes.filter { $0.storeSeq == $0.journalSeq + 1 }.count
        let absent = outcomes.filter { $0.storeSeq == 0 }.count
        let torn = outcomes.filter { $0.droppedLines > 0 }.count
        let debris = outcomes.filter { $0.leftoverTemporaryFiles > 0 }.count
        // The invariants above hold vacuously for a run killed before its first write: most runs must have written.
        #expect(outcomes.count - absent >= outcomes.count / 2, "only \(outcomes.count - absent) runs left a record")
        print(
            "CrashTests: \(outcomes.count) kills in \(ContinuousClock.now - started); killed between store write and "
                + "journal append: \(between); before the first write: \(absent); torn journal tail: \(torn); "
                + "temporary files left: \(debris)")
    }

    /// Starts the probe in `root`, waits for "ready" (60 s at most: a bound for a loaded machine), kills it after 0–40 ms; returns how many
    /// temporary files it left behind.
    private static func runAndKill(_ probe: URL, root: URL, log: URL) async throws -> Int {
        let errorLog = log.appendingPathComponent("probe-stderr.txt")
        try Data().write(to: errorLog)
        let errorHandle = try FileHandle(forWritingTo: errorLog)
        defer { try? errorHandle.close() }
        let output = Pipe()
        defer { try? output.fileHandleForReading.close() }
        let process = Process()
        process.executableURL = probe
        process.arguments = [root.path]
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()

        let ready = waitForReady(output.fileHandleForReading.fileDescriptor, timeout: 60)
        if ready {
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...40_000_000))
        }
        kill(process.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(60)  // a bound for a loaded machine, not an expected time
        while process.isRunning && Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
        let stderr = String(decoding: (try? Data(contentsOf: errorLog)) ?? Data(), as: UTF8.self)
        try #require(ready, "the probe did not print ready within 60 s: \(stderr)")
        try #require(!process.isRunning, "the probe did not exit within 60 s of SIGKILL")
        try #require(
            process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
            "the probe ended on its own (status \(process.terminationStatus)): \(stderr)")

        let storeDirectory = root.appendingPathComponent("store")
        let names = (try? storageEntries(of: storeDirectory)) ?? []
        return names.filter { $0.hasPrefix(AtomicFile.temporaryPrefix) }.count
            + (try storageEntries(of: root)).filter { $0.hasPrefix(AtomicFile.temporaryPrefix) }.count
    }

    /// Reopens the store and the journal the probe left and checks every invariant; returns what it found.
    private static func verify(root: URL, mayBeAbsent: Bool, leftovers: Int) throws -> CrashOutcome {
        let storeDirectory = root.appendingPathComponent("store")
        let store = try FileSecureStore(directory: storeDirectory)
        let storeSeq: Int
        if let value = try store.data(forKey: "record") {
            let record = try #require(
                try? JSONDecoder().decode(CrashProbeRecord.self, from: value),
                "record is torn: \(value.count) bytes")
            #expect(record.seq >= 1)
            #expect(record.filler.utf8.count == 4096)
            #expect(CRC32.hex(Data("\(record.seq):\(record.filler)".utf8)) == record.digest)
            storeSeq = record.seq
        } else {
            #expect(mayBeAbsent, "record vanished after it had been written")
            storeSeq = 0
        }
        #expect(try store.keys() == (storeSeq == 0 ? [] : ["record"]))
        #expect(try storageEntries(of: storeDirectory) == (storeSeq == 0 ? [] : ["record"]))

        let journal = try FileJournal(url: root.appendingPathComponent("journal.log"))
        #expect(try storageEntries(of: root) == ["journal.log", "store"])
        let contents = try journal.read()
        #expect(contents.droppedLines <= 1)
        let seqs = try contents.lines.map { try JSONDecoder().decode(CrashProbeLine.self, from: $0).seq }
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 }, "sequence numbers \(seqs)")
        let journalSeq = seqs.last ?? 0
        // The probe stores i, then journals i: the store is at most one step ahead of the journal, never behind.
        #expect(storeSeq == journalSeq || storeSeq == journalSeq + 1, "store \(storeSeq), journal \(journalSeq)")

        // After the read, the journal takes a clean append; then it is put back as the probe left it.
        let check = Data(#"{"check":true}"#.utf8)
        try journal.append(check)
        #expect(try journal.read() == JournalContents(lines: contents.lines + [check], droppedLines: 0))
        try journal.replaceAll(with: contents.lines)

        return CrashOutcome(
            storeSeq: storeSeq, journalSeq: journalSeq, droppedLines: contents.droppedLines,
            leftoverTemporaryFiles: leftovers)
    }

    /// Waits until the descriptor yields "ready\n", end of file, or `timeout` seconds pass.
    private static func waitForReady(_ fd: Int32, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var received: [UInt8] = []
        while !received.starts(with: Array("ready\n".utf8)) {
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard remaining > 0 else { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, remaining)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return false }
            received.append(contentsOf: buffer[0..<count])
        }
        return true
    }
}
