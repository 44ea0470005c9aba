import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateSimulator

/// A journal's `seq` is read from disk: any value there is survivable. A line whose sequence is out of range is
/// damaged like a line with a bad checksum: dropped, reported, and the rest replays.
@Suite("Journal sequence numbers from disk")
struct JournalSequenceTests {
    /// Records what the service logs.
    final class Recorder: RegStateLogger {
        let lines = LockedValue<[String]>([])
        func log(_ level: RegStateLogLevel, _ message: String) { lines.withLock { $0.append("\(level): \(message)") } }
    }

    static func line(seq: String, isNative: Bool = true) -> Data {
        Data(#"{"at":1800000000,"event":{"launched":{"isNative":\#(isNative)}},"seq":\#(seq)}"#.utf8)
    }

    static let outOfRange = ["9223372036854775807", "9223372036854775806", "9223372036854775808", "1e300",
                             "18446744073709551616", "9007199254740992", "0", "-1", "-9223372036854775808"]

    @Test("an entry with seq near Int.max, at 2^53, or beyond Int does not decode", arguments: outOfRange)
    func decodeRefusesOutOfRange(_ seq: String) {
        #expect(throws: JournalError.self) { try JournalEntry.decode(Self.line(seq: seq)) }
    }

    @Test("the largest sequence and an ordinary one decode")
    func decodeAcceptsInRange() throws {
        #expect(try JournalEntry.decode(Self.line(seq: "9007199254740991")).sequence == JournalEntry.maximumSequence)
        #expect(try JournalEntry.decode(Self.line(seq: "7")).sequence == 7)
    }

    /// The service launches, drops and reports those lines, replays the rest and counts on from the last good one.
    @Test("a journal file with seq near Int.max and beyond is survived")
    func serviceSurvives() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-seq-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try FileJournal(url: directory.appendingPathComponent("journal.log"))
        try journal.append(Self.line(seq: "1"))
        for seq in Self.outOfRange { try journal.append(Self.line(seq: seq)) }
        try journal.append(Self.line(seq: "2"))
        let recorder = Recorder()
        let service = RegStateService(
            configuration: RegStateConfiguration(oidc: OIDCConfiguration(
                issuer: URL(string: "https://idp.regstate.sim")!, clientID: "c",
                redirectURI: URL(string: "com.example.app:/callback")!)),
            dependencies: RegStateDependencies(store: InMemorySecureStore(), journal: journal,
                                               transport: try Simulator().transport, clock: ManualClock(),
                                               platform: FixedPlatformService.web, logger: recorder))
        let state = await service.start()
        guard case .active(let session) = state else {
            Issue.record("expected Active A, got \(state)")
            return
        }
        #expect(session.activation == .nonNative)
        #expect(recorder.lines.withLock { $0 }.contains("warning: journal: dropped \(Self.outOfRange.count) unreadable entr(ies)"))
        let sequences = try await service.journalEntries().map(\.sequence)
        #expect(sequences.prefix(2) == [1, 2])
        #expect(sequences.dropFirst(2).first == 3)
        #expect(sequences == Array(1...sequences.count))
    }

    /// A journal whose last line sits at the largest sequence the reader accepts: the next write must not exceed it.
    /// The recorder renumbers the history from the last launch and every line stays readable.
    @Test("at the maximum sequence the next entry is still readable (renumbered, never past the cap)")
    func recorderNeverWritesPastTheCap() async throws {
        let journal = InMemoryJournal()
        try journal.append(Self.line(seq: String(JournalEntry.maximumSequence - 1), isNative: false))
        try journal.append(Self.line(seq: String(JournalEntry.maximumSequence), isNative: false))
        let service = RegStateService(
            configuration: RegStateConfiguration(oidc: OIDCConfiguration(
                issuer: URL(string: "https://idp.regstate.sim")!, clientID: "c",
                redirectURI: URL(string: "com.example.app:/callback")!)),
            dependencies: RegStateDependencies(store: InMemorySecureStore(), journal: journal,
                                               transport: try Simulator().transport, clock: ManualClock(),
                                               platform: FixedPlatformService.web, logger: Recorder()))
        _ = await service.start()
        var lines = try journal.read().lines
        // At the cap the history is folded into a snapshot line numbered 0; the entries after it start again at 1.
        let first = try #require(lines.first)
        #expect(String(decoding: first, as: UTF8.self).hasPrefix(#"{"snapshot":{"seq":0,"#))
        lines.removeFirst()
        #expect(!lines.isEmpty)
        let decoded = lines.compactMap { try? JournalEntry.decode($0) }
        #expect(decoded.count == lines.count, "every line written must be one the reader accepts")
        let sequences = decoded.map(\.sequence)
        #expect(sequences == Array(1...sequences.count))
        #expect(sequences.allSatisfy { $0 <= JournalEntry.maximumSequence })
        // A relaunch replays the snapshot and the entries after it to the same state.
        let replayed = await RegStateService(
            configuration: RegStateConfiguration(oidc: OIDCConfiguration(
                issuer: URL(string: "https://idp.regstate.sim")!, clientID: "c",
                redirectURI: URL(string: "com.example.app:/callback")!)),
            dependencies: RegStateDependencies(store: InMemorySecureStore(), journal: journal,
                                               transport: try Simulator().transport, clock: ManualClock(),
                                               platform: FixedPlatformService.web, logger: Recorder())).start()
        #expect(replayed == (await service.state))
    }
}
