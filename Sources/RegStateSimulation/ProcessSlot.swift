import Foundation
import RegState
import RegStateTesting

/// One app or extension of the simulated device: its journal (which survives crashes, as its file would) and the
/// engine of its current incarnation. A crash or a relaunch ends the incarnation; the next one starts from disk.
final class ProcessSlot: @unchecked Sendable {
    // @unchecked: mutated only by the run's driver actor; the liveness set is locked.
    let index: Int
    let journal = InMemoryJournal()
    var incarnation: Int
    var service: RegStateService?

    init(index: Int, incarnation: Int) {
        self.index = index
        self.incarnation = incarnation
    }
}

/// Which incarnations have ended (crashed or exited), shared by the disk, the network and the journals.
final class Liveness: @unchecked Sendable {
    // @unchecked: `dead` is guarded by `lock`.
    private let lock = NSLock()
    private var dead: Set<Int> = []

    func kill(_ incarnation: Int) { lock.withLock { _ = dead.insert(incarnation) } }
    func isAlive(_ incarnation: Int) -> Bool { lock.withLock { !dead.contains(incarnation) } }
}

/// A process's journal: the slot's journal, closed to an incarnation that has ended.
struct JournalView: EventJournal {
    let journal: InMemoryJournal
    let incarnation: Int
    let liveness: Liveness

    func append(_ line: Data) throws(JournalError) {
        guard liveness.isAlive(incarnation) else { throw .writeFailed("the process has ended") }
        try journal.append(line)
    }

    func read() throws(JournalError) -> JournalContents { try journal.read() }

    func replaceAll(with lines: [Data]) throws(JournalError) {
        guard liveness.isAlive(incarnation) else { throw .writeFailed("the process has ended") }
        try journal.replaceAll(with: lines)
    }
}
