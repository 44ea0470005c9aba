import Foundation
import RegState

/// The durability checks: what a power loss leaves of the files the engine relies on (the store's keys and the
/// journals), against what the operations that returned promised.
///
/// `durable-writes`: every store or journal operation on such a file runs synchronously on the simulation's one
/// thread, so at a power loss at most one is half done. After it, each file must hold the state the last operation
/// that returned left (for a journal: its complete lines), or a state that an operation that failed since (its
/// process crashed, its disk was full) left visible, or the state visible just before the power went (the half-done
/// operation); for a journal also a whole-line prefix of what a half-done multi-line append was adding (its
/// documented contract). A write that returned and is then lost is a violation.
extension SimulatedFileSystem {
    /// Starts tracking `path`, before the first operation on it; `journal` compares complete lines only (a torn tail
    /// is not content). What it holds now may survive a power loss until an operation on it returns: the first write
    /// of a record may fail (its process crashed after the rename, before the directory's sync), and the record's
    /// absence before it is then as good an outcome as what the write left visible.
    func watch(_ path: String, journal: Bool) {
        lock.withLock {
            guard watched[path] == nil else { return }
            watched[path] = journal
            if survivable[path] == nil { survivable[path] = [normalized(path, journal: journal)] }
        }
    }

    /// An operation on `path` returned (`succeeded`) or threw. One that returned without writing (`wrote: false`, a
    /// read) promises nothing about bytes it saw: they may be a dead process's unsynced write, which a power loss may
    /// rightly drop, so its state is added to what may survive instead of replacing it.
    func operationEnded(on path: String, succeeded: Bool, wrote: Bool = true) {
        lock.withLock {
            guard let journal = watched[path] else { return }
            let now = normalized(path, journal: journal)
            if succeeded && wrote { survivable[path] = [now] } else { survivable[path, default: []].append(now) }
        }
    }

    /// Caller holds `lock`. The content of `path` that must survive: the bytes, or a journal's complete lines.
    func normalized(_ path: String, journal: Bool) -> Data? {
        guard let id = names[path], let node = nodes[id], !node.isDirectory else { return nil }
        guard journal else { return Data(node.data) }
        guard let end = node.data.lastIndex(of: JournalFraming.newline) else { return Data() }
        return Data(node.data[...end])
    }

    /// Caller holds `lock`. Every tracked file's content now.
    func watchedContents() -> [String: Data?] {
        var contents: [String: Data?] = [:]
        for (path, journal) in watched { contents[path] = normalized(path, journal: journal) }
        return contents
    }

    /// Caller holds `lock`, right after a power loss reverted the files: checks each tracked file, then takes its
    /// state now as the durable one.
    func checkSurvivors(before: [String: Data?]) {
        for path in watched.keys.sorted() {
            guard let journal = watched[path] else { continue }
            let after = normalized(path, journal: journal)
            if let allowed = survivable[path], !allowed.contains(after), before[path] != .some(after),
               !(journal && Self.isTornAppend(after, between: allowed, and: before[path] ?? nil)) {
                let name = (path as NSString).lastPathComponent
                pendingViolations.append("\(name) lost what a returned write put there: after the power loss it holds "
                                         + "\(after.map { "\($0.count) bytes" } ?? "nothing"), not one of "
                                         + "\(allowed.map { $0.map { "\($0.count) bytes" } ?? "nothing" })")
            }
            survivable[path] = [after]
        }
    }

    /// Whether a journal's complete lines `after` a power loss are what a half-done multi-line append
    /// (``JournalWrite/appendLines(_:)``: "a crash keeps a prefix of them, each line whole or not at all") left: a
    /// state some returned or failed operation left, plus some (not all) of the lines the half-done one was adding.
    static func isTornAppend(_ after: Data?, between allowed: [Data?], and before: Data?) -> Bool {
        guard let after, let before, before.starts(with: after) else { return false }
        return allowed.contains { $0.map { after.starts(with: $0) } ?? false }
    }

    /// journal-intact: no journal holds a damaged line before its end (a torn tail is allowed: the next call cuts it).
    func checkJournals(_ slots: [ProcessSlot]) {
        var checked: Set<String> = []
        for slot in slots where checked.insert(journalPath(slot)).inserted {
            guard let data = contents(journalPath(slot)) else { continue }
            let parsed = parsedJournal(data, at: journalPath(slot))
            let tornTail = data.last.map { $0 != JournalFraming.newline } ?? false
            let damaged = parsed.dropped - (tornTail ? 1 : 0)
            if damaged > 0 {
                ledger.violation("journal-intact", "slot \(slot.index)'s journal holds \(damaged) damaged line(s) before its end")
            }
        }
    }
}

extension SimulatedFileSystem {
    /// `data`, the journal at `path` now, parsed past what the last parse of that path saw when it still starts with
    /// it (every step checks every journal, and most steps only append to them).
    func parsedJournal(_ data: Data, at path: String) -> JournalFraming.Parsed {
        let parsed = JournalFraming.parse(data, continuing: lock.withLock { journalParses[path] })
        lock.withLock { journalParses[path] = (data, parsed) }
        return parsed
    }
}

/// The real journal, with each operation's end reported so that power losses can be checked against it.
struct RecordingJournal: EventJournal {
    let journal: FileJournal
    let fileSystem: SimulatedFileSystem

    private func recorded<T>(wrote: () -> Bool = { true }, _ body: () throws(JournalError) -> T) throws(JournalError) -> T {
        do {
            let result = try body()
            fileSystem.operationEnded(on: journal.path, succeeded: true, wrote: wrote())
            return result
        } catch {
            fileSystem.operationEnded(on: journal.path, succeeded: false)
            throw error
        }
    }

    func append(_ line: Data) throws(JournalError) { try recorded { () throws(JournalError) in try journal.append(line) } }
    func read() throws(JournalError) -> JournalContents {
        try recorded(wrote: { false }) { () throws(JournalError) in try journal.read() }
    }
    func replaceAll(with lines: [Data]) throws(JournalError) {
        try recorded { () throws(JournalError) in try journal.replaceAll(with: lines) }
    }
    func update(_ decide: (JournalContents) throws(JournalError) -> JournalWrite?) throws(JournalError) {
        var wrote = false
        try recorded(wrote: { wrote }) { () throws(JournalError) in
            try journal.update { contents throws(JournalError) in
                let write = try decide(contents)
                wrote = write != nil
                return write
            }
        }
    }
}
