import Foundation
import Testing
@testable import RegState

/// A journal read before every append parses only what was appended since the last read: the result must be exactly
/// that of parsing the whole file, whatever happened to the file in between.
@Suite("Journal: incremental reads")
struct JournalIncrementalReadTests {
    static func line(_ payload: String) throws -> Data { try JournalFraming.frame(Data(payload.utf8)) }

    /// (before, after) pairs of journal bytes: appends, torn tails, repairs, compactions, damage and truncation.
    static func transitions() throws -> [(name: String, before: Data, after: Data)] {
        let one = try line(#"{"seq":1,"event":"a"}"#)
        let two = try line(#"{"seq":2,"event":"b"}"#)
        let three = try line(#"{"seq":3,"event":"c"}"#)
        let snapshot = try line(#"{"snapshot":{"seq":2,"state":{}}}"#)
        let torn = three.prefix(7)
        var damaged = two
        damaged[damaged.startIndex + 12] ^= 0x01
        return [
            ("an append", one, one + two),
            ("two appends", one, one + two + three),
            ("nothing new", one + two, one + two),
            ("a torn append", one + two, one + two + torn),
            ("a torn tail repaired and appended to", one + two + torn, one + two + three),
            ("a compaction by another process", one + two, snapshot + three),
            ("a snapshot then appends", snapshot, snapshot + three),
            ("a damaged line before", one + damaged, one + damaged + three),
            ("a damaged line appended", one, one + damaged + three),
            ("a cleared journal", one + two, Data()),
            ("a file cut shorter", one + two + three, one + two),
            ("the same length, other bytes", one + two, one + three),
            ("a first read", Data(), one),
            ("an unnumbered line", one, one + (try line(#"{"other":true}"#))),
        ]
    }

    @Test("Given any change to a journal file between two reads, when the second read continues the first, then it parses exactly as a whole read does")
    func framingMatchesWholeParse() throws {
        for transition in try Self.transitions() {
            let earlier = (bytes: transition.before, parsed: JournalFraming.parse(transition.before))
            #expect(JournalFraming.parse(transition.after, continuing: earlier) == JournalFraming.parse(transition.after),
                    "\(transition.name)")
        }
    }

    @Test("Given any change to a journal's lines between two appends, when the numbers continue the earlier ones, then they are those of reading every line")
    func numbersMatchWholeRead() throws {
        for transition in try Self.transitions() {
            let before = JournalFraming.parse(transition.before).lines
            let after = JournalFraming.parse(transition.after).lines
            let earlier = (lines: before, numbers: JournalLines(before, decodingEntries: false))
            let continued = JournalLines.numbers(of: after, continuing: earlier)
            let whole = JournalLines(after, decodingEntries: false)
            #expect(continued.lastSequence == whole.lastSequence, "\(transition.name)")
            #expect(continued.tailCount == whole.tailCount, "\(transition.name)")
            #expect(continued.unreadable == whole.unreadable, "\(transition.name)")
        }
    }

    @Test("Given a journal file another journal instance appends to and compacts, when this instance updates it each time, then it reads every line the file holds")
    func fileJournalFollowsOtherWriters() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("incremental-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("journal.log")
        let mine = try FileJournal(url: url)
        let other = try FileJournal(url: url)
        for round in 1...6 {
            try mine.update { _ in .append(Data("mine \(round)".utf8)) }
            try other.append(Data("other \(round)".utf8))
            if round == 3 { try other.replaceAll(with: [Data("folded".utf8)]) }
            var seen: [Data] = []
            try mine.update { contents in seen = contents.lines; return nil }
            #expect(seen == (try other.read().lines), "round \(round)")
        }
        #expect(try mine.read().lines.first == Data("folded".utf8))
    }
}
