import Foundation
import RegState
@testable import RegStateSimulation
import Testing

@Suite("Simulation parts")
struct SimulatedWorldPartsTests {
    @Test("Given the trace while a host user logout waited, only a logout or forced logout that ended the session excuses it; a refused one does not")
    func logoutExcuseIsNarrow() {
        let ended: [String] = ["012 call  p2 logout(userRequested) -> revoked", "012 call  p3 forcedLogout -> logged out",
                               "012 call  p1 logout -> revoked", "012 call  p1 clearState -> removed 3 key(s), backend: removed"]
        let refused: [String] = ["012 call  p2 logout(userRequested) -> refused (offline(RegState.TransientIssue.noInternet))",
                                 "012 call  p3 forcedLogout -> refused (credentialsRemain(\"busy\"))",
                                 "012 call  p1 logout -> refused (offline(RegState.TransientIssue.noInternet))",
                                 "012 call  p1 clearState -> credentials remain (The store is in use by another process)",
                                 "012 call  p2 validAccessToken -> token", "012 act   user logs out in the host app on slot 1"]
        for line in ended { #expect(SimulationRun.sessionEndedMeanwhile([line][...]), "\(line)") }
        for line in refused { #expect(!SimulationRun.sessionEndedMeanwhile([line][...]), "\(line)") }
        #expect(SimulationRun.sessionEndedMeanwhile((refused + ended.prefix(1))[...]))
    }

    @Test("Given one seed, when two generators draw, then they draw the same numbers; another seed differs")
    func seededRandomReplays() {
        var first = SeededRandom(seed: 42)
        var second = SeededRandom(seed: 42)
        var other = SeededRandom(seed: 43)
        let drawn = (0..<8).map { _ in first.next() }
        #expect(drawn == (0..<8).map { _ in second.next() })
        #expect(drawn != (0..<8).map { _ in other.next() })
    }

    @Test("Given a full disk, when a process writes, then the write fails and the old value stays")
    func fullDiskKeepsOldValue() throws {
        let disk = SimulatedDisk(random: SeededRandom(seed: 1), ledger: Ledger()) { _ in }
        let store = disk.view(for: 1)
        try store.set(Data("old".utf8), forKey: "credentials")
        disk.writeFailurePercent = 100
        #expect(throws: StoreError.self) { try store.set(Data("new".utf8), forKey: "credentials") }
        #expect(disk.peek("credentials") == Data("old".utf8))
        try store.removeValue(forKey: "credentials")
        #expect(disk.peek("credentials") == nil)
    }

    @Test("Given crashes between the writes' system calls, when processes write, then the value is old or new and the writer is dead")
    func crashLeavesOldOrNew() throws {
        let killed = KilledSet()
        let disk = SimulatedDisk(random: SeededRandom(seed: 7), ledger: Ledger()) { killed.insert($0) }
        try disk.view(for: 0).set(Data("v0".utf8), forKey: "k")
        disk.crashPercent = 100
        for process in 1...20 {
            let before = disk.peek("k")
            #expect(throws: StoreError.self) { try disk.view(for: process).set(Data("v\(process)".utf8), forKey: "k") }
            #expect(disk.peek("k") == before || disk.peek("k") == Data("v\(process)".utf8))
            #expect(throws: StoreError.self) { try disk.view(for: process).data(forKey: "k") }
        }
        #expect(killed.count == 20)
    }

    @Test("Given a process holding the lock, when it dies, then the next waiter gets the lock")
    func lockPassesOnDeath() async throws {
        let disk = SimulatedDisk(random: SeededRandom(seed: 1), ledger: Ledger()) { _ in }
        _ = try await disk.view(for: 1).acquireExclusiveAccess(timeout: 1)
        let waiter = Task { try await disk.view(for: 2).acquireExclusiveAccess(timeout: 1) }
        disk.kill(1)
        let lease = try await waiter.value
        lease.release()
        await #expect(throws: StoreError.self) { try await disk.view(for: 1).acquireExclusiveAccess(timeout: 1) }
    }
}

/// The processes a disk crash killed.
private final class KilledSet: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var killed: Set<Int> = []
    func insert(_ process: Int) { lock.withLock { _ = killed.insert(process) } }
    var count: Int { lock.withLock { killed.count } }
}
