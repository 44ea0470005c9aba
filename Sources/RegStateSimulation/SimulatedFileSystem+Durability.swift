import Foundation
import RegState

/// The durability checks: what a power loss leaves of the files the engine relies on (the store's keys and the
/// journals), against what the operations that returned promised.
///
/// `durable-writes`: every store or journal operation on such a file runs synchronously on the simulation's one
/// thread, so at a power loss at most one is half done. After it, each file must hold the state the last operation
/// that returned left (for a journal: its complete lines), or a state that an operation that failed since (its
/// process crashed, its disk was full) left visible, or the state visible just before the power went (the half-done
/// operation). A write that returned and is then lost is a violation.
extension SimulatedFileSystem {
    /// Starts tracking `path`; `journal` compares complete lines only (a torn tail is not content).
    func watch(_ path: String, journal: Bool) {
        lock.withLock { if watched[path] == nil { watched[path] = journal } }
    }

    /// An operation on `path` returned (`succeeded`) or threw.
    func operationEnded(on path: String, succeeded: Bool) {
        lock.withLock {
            guard let journal = watched[path] else { return }
            let now = normalized(path, journal: journal)
            if succeeded { survivable[path] = [now] } else { survivable[path, default: []].append(now) }
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
            if let allowed = survivable[path], !allowed.contains(after), before[path] != .some(after) {
                let name = (path as NSString).lastPathComponent
                pendingViolations.append("\(name) lost what a returned write put there: after the power loss it holds "
                                         + "\(after.map { "\($0.count) bytes" } ?? "nothing"), not one of "
                                         + "\(allowed.map { $0.map { "\($0.count) bytes" } ?? "nothing" })")
            }
            survivable[path] = [after]
        }
    }

    /// journal-intact: no journal holds a damaged line before its end (a torn tail is allowed: the next call cuts it).
    func checkJournals(_ slots: [ProcessSlot]) {
        for slot in slots {
            guard let data = contents(journalPath(slot)) else { continue }
            let parsed = JournalFraming.parse(data)
            let tornTail = data.last.map { $0 != JournalFraming.newline } ?? false
            let damaged = parsed.dropped - (tornTail ? 1 : 0)
            if damaged > 0 {
                ledger.violation("journal-intact", "slot \(slot.index)'s journal holds \(damaged) damaged line(s) before its end")
            }
        }
    }
}

/// The real journal, with each operation's end reported so that power losses can be checked against it.
struct RecordingJournal: EventJournal {
    let journal: FileJournal
    let fileSystem: SimulatedFileSystem

    private func recorded<T>(_ body: () throws -> T) throws -> T {
        do {
            let result = try body()
            fileSystem.operationEnded(on: journal.url.path, succeeded: true)
            return result
        } catch {
            fileSystem.operationEnded(on: journal.url.path, succeeded: false)
            throw error
        }
    }

    func append(_ line: Data) throws { try recorded { try journal.append(line) } }
    func read() throws -> JournalContents { try recorded { try journal.read() } }
    func replaceAll(with lines: [Data]) throws { try recorded { try journal.replaceAll(with: lines) } }
    func update(_ decide: (JournalContents) throws -> JournalWrite?) throws { try recorded { try journal.update(decide) } }
}
