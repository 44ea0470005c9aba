import Foundation
import RegState
import Testing
import RegStateTesting

@Suite("FileJournal")
struct JournalFileTests {
    @Test("the file is created 0600; an existing one is tightened; replaceAll keeps 0600")
    func fileModes() throws {
        try withStorageScratch { scratch in
            let url = scratch.appendingPathComponent("journal.log")
            let journal = try FileJournal(url: url)
            #expect(try storagePermissions(of: url) == 0o600)
            try journal.replaceAll(with: [Data("a".utf8)])
            #expect(try storagePermissions(of: url) == 0o600)

            let other = scratch.appendingPathComponent("loose.log")
            try Data().write(to: other)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: other.path)
            _ = try FileJournal(url: other)
            #expect(try storagePermissions(of: other) == 0o600)
            #expect(try storageEntries(of: scratch) == ["journal.log", "loose.log"])
        }
    }

    @Test("lines survive reopening")
    func reopen() throws {
        try withStorageScratch { scratch in
            let url = scratch.appendingPathComponent("journal.log")
            try FileJournal(url: url).append(Data("first".utf8))
            let reopened = try FileJournal(url: url)
            try reopened.append(Data("second".utf8))
            #expect(try reopened.read().lines == [Data("first".utf8), Data("second".utf8)])
        }
    }

    @Test("a directory in place of the file, or a missing parent, is unreadable")
    func unusablePaths() throws {
        try withStorageScratch { scratch in
            let directory = scratch.appendingPathComponent("journal.log", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            #expect {
                try FileJournal(url: directory)
            } throws: { error in
                guard case .unreadable(let reason)? = error as? JournalError else { return false }
                return !reason.isEmpty
            }
            #expect(throws: JournalError.self) { try FileJournal(url: scratch.appendingPathComponent("no/journal.log")) }
        }
    }

    @Test("opening removes the journal's stale temporary files, not other files")
    func staleTemporaryFiles() throws {
        try withStorageScratch { scratch in
            let url = scratch.appendingPathComponent("journal.log")
            let stale = AtomicFile.temporaryPrefix + "journal.log.0123abcd"
            let unrelated = AtomicFile.temporaryPrefix + "world.json.0123abcd"
            for name in [stale, unrelated, "journal.log"] {
                try Data().write(to: scratch.appendingPathComponent(name))
            }
            _ = try FileJournal(url: url)
            #expect(try storageEntries(of: scratch) == [unrelated, "journal.log"])
        }
    }

    @Test("a journal deleted behind its back reads as empty and appends recreate it")
    func deletedFile() throws {
        try withStorageScratch { scratch in
            let url = scratch.appendingPathComponent("journal.log")
            let journal = try FileJournal(url: url)
            try journal.append(Data("a".utf8))
            try FileManager.default.removeItem(at: url)
            #expect(try journal.read() == JournalContents(lines: [], droppedLines: 0))
            try journal.append(Data("b".utf8))
            #expect(try journal.read().lines == [Data("b".utf8)])
            #expect(try storagePermissions(of: url) == 0o600)
        }
    }

    @Test("concurrent appends from many tasks all land intact")
    func concurrentAppends() async throws {
        try await withStorageScratch { scratch in
            let journal = try FileJournal(url: scratch.appendingPathComponent("journal.log"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<50 { group.addTask { try journal.append(Data(#"{"n":\#(index)}"#.utf8)) } }
                try await group.waitForAll()
            }
            let contents = try journal.read()
            #expect(contents.droppedLines == 0)
            #expect(Set(contents.lines) == Set((0..<50).map { Data(#"{"n":\#($0)}"#.utf8) }))
        }
    }
}

@Suite("InMemoryJournal")
struct JournalInMemoryTests {
    @Test("an armed write failure fails exactly one write and changes nothing")
    func failNextWrite() throws {
        let journal = InMemoryJournal()
        try journal.append(Data("a".utf8))
        let failure = JournalError.writeFailed("disk full")
        journal.failNextWrite(failure)
        #expect(throws: failure) { try journal.append(Data("b".utf8)) }
        journal.failNextWrite(failure)
        #expect(throws: failure) { try journal.replaceAll(with: []) }
        #expect(try journal.read().lines == [Data("a".utf8)])
        try journal.append(Data("b".utf8))
        #expect(try journal.read().lines == [Data("a".utf8), Data("b".utf8)])
    }
}
