import Foundation
import RegState
import Testing
import RegStateTesting

/// A journal under test plus the back door a crash would use: raw bytes in, raw bytes out.
struct JournalFixture {
    var journal: any EventJournal
    /// Appends bytes unframed, as a crash or a disk fault would leave them.
    var injectRaw: (Data) throws -> Void
    /// The journal's bytes as stored.
    var rawBytes: () throws -> Data
}

/// The two journal implementations, so the shared semantics are checked against both.
enum JournalKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case file, memory

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh, empty journal of this kind.
    func withJournal(_ body: (JournalFixture) throws -> Void) throws {
        switch self {
        case .memory:
            let journal = InMemoryJournal()
            try body(JournalFixture(journal: journal, injectRaw: journal.appendRawBytes, rawBytes: { journal.rawBytes }))
        case .file:
            try withStorageScratch { scratch in
                let url = scratch.appendingPathComponent("journal.log")
                let journal = try FileJournal(url: url)
                let inject: (Data) throws -> Void = { bytes in
                    let handle = try FileHandle(forWritingTo: url)
                    defer { try? handle.close() }
                    try handle.seekToEnd()
                    try handle.write(contentsOf: bytes)
                }
                try body(JournalFixture(journal: journal, injectRaw: inject, rawBytes: { try Data(contentsOf: url) }))
            }
        }
    }
}

/// `Data` from text, for brevity.
private func line(_ text: String) -> Data { Data(text.utf8) }

/// The framed form of `payloads`, built independently of the implementation.
private func framed(_ payloads: [String]) -> Data {
    Data(payloads.map { CRC32.hex(Data($0.utf8)) + " " + $0 + "\n" }.joined().utf8)
}

@Suite("EventJournal contract")
struct JournalContractTests {
    @Test("lines round-trip in order, the empty line included", arguments: JournalKind.allCases)
    func roundTrip(kind: JournalKind) throws {
        try kind.withJournal { fixture in
            #expect(try fixture.journal.read() == JournalContents(lines: [], droppedLines: 0))
            let payloads = [#"{"event":"started"}"#, "", #"{"event":"registered","letter":"H"}"#]
            for payload in payloads { try fixture.journal.append(line(payload)) }
            #expect(try fixture.journal.read() == JournalContents(lines: payloads.map(line), droppedLines: 0))
            #expect(try fixture.rawBytes() == framed(payloads))
        }
    }

    @Test("the framing is `<crc32 hex> <payload>\\n`")
    func framingIsExact() throws {
        try JournalKind.memory.withJournal { fixture in
            try fixture.journal.append(line("123456789"))
            #expect(try fixture.rawBytes() == line("cbf43926 123456789\n"))
        }
    }

    @Test(
        "a torn last line is dropped, counted and cut off, so the next append is clean",
        arguments: JournalKind.allCases, ["deadbeef {\"half", "0", "cbf43926 123456789"])
    func tornLastLine(kind: JournalKind, torn: String) throws {
        try kind.withJournal { fixture in
            try fixture.journal.append(line("a"))
            try fixture.journal.append(line("b"))
            try fixture.injectRaw(line(torn))
            #expect(try fixture.journal.read() == JournalContents(lines: [line("a"), line("b")], droppedLines: 1))
            #expect(try fixture.rawBytes() == framed(["a", "b"]))
            try fixture.journal.append(line("c"))
            #expect(try fixture.journal.read() == JournalContents(lines: ["a", "b", "c"].map(line), droppedLines: 0))
        }
    }

    @Test("an append straight after a crash (no read) does not glue onto the torn tail", arguments: JournalKind.allCases)
    func appendRepairsTornTail(kind: JournalKind) throws {
        try kind.withJournal { fixture in
            try fixture.journal.append(line("a"))
            try fixture.injectRaw(line("1234abcd {\"torn"))
            try fixture.journal.append(line("b"))
            #expect(try fixture.journal.read() == JournalContents(lines: [line("a"), line("b")], droppedLines: 0))
            #expect(try fixture.rawBytes() == framed(["a", "b"]))
        }
    }

    @Test("a complete last line with a bad checksum is dropped and cut off", arguments: JournalKind.allCases)
    func badChecksumLastLine(kind: JournalKind) throws {
        try kind.withJournal { fixture in
            try fixture.journal.append(line("a"))
            try fixture.injectRaw(line("00000000 not-the-checksum\n"))
            #expect(try fixture.journal.read() == JournalContents(lines: [line("a")], droppedLines: 1))
            #expect(try fixture.rawBytes() == framed(["a"]))
        }
    }

    @Test(
        "damaged lines in the middle are skipped and counted, not fatal, and stay counted",
        arguments: JournalKind.allCases)
    func corruptMiddleLines(kind: JournalKind) throws {
        try kind.withJournal { fixture in
            try fixture.journal.append(line("a"))
            // Bad checksum, no separator, too short, not hex, and an empty line.
            try fixture.injectRaw(line("00000000 tampered\ncbf43926-123456789\nabc\nzzzzzzzz x\n\n"))
            try fixture.journal.append(line("b"))
            let expected = JournalContents(lines: [line("a"), line("b")], droppedLines: 5)
            #expect(try fixture.journal.read() == expected)
            #expect(try fixture.journal.read() == expected)
        }
    }

    @Test("a flipped bit inside a payload is caught by the checksum", arguments: JournalKind.allCases)
    func flippedBit(kind: JournalKind) throws {
        try kind.withJournal { fixture in
            var corrupted = framed([#"{"seq":1}"#])
            corrupted[corrupted.startIndex + 12] ^= 0x01
            try fixture.injectRaw(corrupted)
            try fixture.journal.append(line("ok"))
            #expect(try fixture.journal.read() == JournalContents(lines: [line("ok")], droppedLines: 1))
        }
    }

    @Test("a payload containing a newline is rejected and nothing is written", arguments: JournalKind.allCases)
    func newlineRejected(kind: JournalKind) throws {
        try kind.withJournal { fixture in
            try fixture.journal.append(line("a"))
            #expect(throws: JournalError.self) { try fixture.journal.append(line("two\nlines")) }
            #expect(throws: JournalError.self) { try fixture.journal.replaceAll(with: [line("x"), line("y\n")]) }
            #expect(try fixture.journal.read() == JournalContents(lines: [line("a")], droppedLines: 0))
            do {
                try fixture.journal.append(line("\n"))
                Issue.record("a newline was accepted")
            } catch let error as JournalError {
                guard case .writeFailed(let reason) = error else { throw error }
                #expect(reason.contains("newline"))
            }
        }
    }

    @Test("replaceAll swaps the whole content, drops damage, and can empty the journal", arguments: JournalKind.allCases)
    func replaceAll(kind: JournalKind) throws {
        try kind.withJournal { fixture in
            for payload in ["1", "2", "3"] { try fixture.journal.append(line(payload)) }
            try fixture.injectRaw(line("garbage"))
            try fixture.journal.replaceAll(with: [line("2"), line("3")])
            #expect(try fixture.journal.read() == JournalContents(lines: [line("2"), line("3")], droppedLines: 0))
            try fixture.journal.append(line("4"))
            #expect(try fixture.journal.read().lines == ["2", "3", "4"].map(line))
            try fixture.journal.replaceAll(with: [])
            #expect(try fixture.journal.read() == JournalContents(lines: [], droppedLines: 0))
            #expect(try fixture.rawBytes() == Data())
        }
    }
}

@Suite("CRC-32")
struct JournalCRC32Tests {
    @Test(
        "known check values",
        arguments: [
            ("", UInt32(0)), ("123456789", 0xCBF4_3926), ("a", 0xE8B7_BE43),
            ("The quick brown fox jumps over the lazy dog", 0x414F_A339),
        ])
    func checkValues(text: String, expected: UInt32) {
        #expect(CRC32.checksum(Data(text.utf8)) == expected)
    }

    @Test("hex is 8 lowercase digits, zero-padded")
    func hexIsPadded() {
        #expect(CRC32.hex(Data()) == "00000000")
        #expect(CRC32.hex(Data("123456789".utf8)) == "cbf43926")
    }
}
