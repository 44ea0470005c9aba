import Foundation
import RegState

/// The simulated disk that every engine instance of a run shares (an app and its extensions): a key–value store
/// with the ``SecureStore`` contract, one lock between processes, and faults drawn from the run's seed.
///
/// A write is modelled as the file store does it (temp file, fsync, rename): a **write failure** (full disk) changes
/// nothing and throws; a **crash** between two of those system calls kills the writing process, and the key keeps
/// its old value (the rename did not happen) or takes the new one (it did), never anything else. A dead process
/// (an incarnation the world crashed) can no longer read or write, and the kernel releases its lock.
public final class SimulatedDisk: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    private let lock = NSLock()
    private var values: [String: Data] = [:]
    private var committed: [String: Set<Data>] = [:]
    private var random: SeededRandom
    private var holder: (incarnation: Int, lease: Int)?
    private var waiters: [(incarnation: Int, lease: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextLease = 0
    private var dead: Set<Int> = []
    /// Percent of writes that fail (full disk).
    public var writeFailurePercent: Int { get { lock.withLock { failPercent } } set { lock.withLock { failPercent = newValue } } }
    /// Percent of writes at which the writing process crashes.
    public var crashPercent: Int { get { lock.withLock { crashRate } } set { lock.withLock { crashRate = newValue } } }
    private var failPercent = 0
    private var crashRate = 0
    private let ledger: Ledger
    /// Called (outside the disk's lock) with the incarnation a crash point killed.
    private let onCrash: @Sendable (Int) -> Void

    /// A disk whose faults draw from `random`, reporting to `ledger`; `onCrash` learns of crash points.
    public init(random: SeededRandom, ledger: Ledger, onCrash: @escaping @Sendable (Int) -> Void) {
        self.random = random
        self.ledger = ledger
        self.onCrash = onCrash
    }

    /// The store as incarnation `incarnation` of a process sees it.
    public func view(for incarnation: Int) -> any SecureStore { DiskView(disk: self, incarnation: incarnation) }

    /// Marks `incarnation` dead: it can no longer touch the disk, and its lock is released.
    public func kill(_ incarnation: Int) {
        let (wake, abandoned) = lock.withLock { () -> (CheckedContinuation<Void, any Error>?, [CheckedContinuation<Void, any Error>]) in
            dead.insert(incarnation)
            let abandoned = waiters.filter { $0.incarnation == incarnation }.map(\.continuation)
            waiters.removeAll { $0.incarnation == incarnation }
            return (releaseLocked(ifHeldBy: incarnation, lease: nil), abandoned)
        }
        wake?.resume()
        // The dead process's own waiters end with an error: their tasks run out with the process's memory.
        for continuation in abandoned { continuation.resume(throwing: StoreError.busy(waited: 0)) }
    }

    /// The value under `key` now, as the next process to start would read it.
    public func peek(_ key: String) -> Data? { lock.withLock { values[key] } }

    /// Whether `data` is a value some write committed under `key` (the torn-write check).
    public func wasCommitted(_ data: Data, under key: String) -> Bool { lock.withLock { committed[key]?.contains(data) ?? false } }

    /// The keys holding a value now.
    public var allKeys: [String] { lock.withLock { values.keys.sorted() } }

    fileprivate func read(_ key: String, by incarnation: Int) throws -> Data? {
        try lock.withLock {
            if dead.contains(incarnation) { throw StoreError.unreadable(key: key, reason: "the process has ended") }
            return values[key]
        }
    }

    fileprivate func keys(by incarnation: Int) throws -> [String] {
        try lock.withLock {
            if dead.contains(incarnation) { throw StoreError.unreadable(key: "", reason: "the process has ended") }
            return values.keys.sorted()
        }
    }

    fileprivate func write(_ data: Data?, _ key: String, by incarnation: Int) throws {
        enum Outcome { case written, failed, crashed(kept: Bool) }
        let outcome: Outcome = try lock.withLock {
            if dead.contains(incarnation) { throw StoreError.writeFailed(key: key, reason: "the process has ended") }
            // A full disk fails writes; removing a file needs no space.
            if data != nil, random.chance(failPercent) { return .failed }
            if random.chance(crashRate) {
                let renamed = random.chance(50)
                if renamed { commit(data, key) }
                return .crashed(kept: !renamed)
            }
            commit(data, key)
            return .written
        }
        switch outcome {
        case .written:
            ledger.note("disk  p\(incarnation) \(data == nil ? "remove" : "write") \(key)\(Ledger.describe(data, key: key))")
            ledger.stored(data, key: key, by: incarnation)
        case .failed:
            ledger.note("disk  p\(incarnation) write \(key) FAILED (disk full)")
            ledger.diskMishap()
            throw StoreError.writeFailed(key: key, reason: "no space left on device")
        case .crashed(let kept):
            ledger.note("disk  p\(incarnation) CRASH during write \(key): \(kept ? "old value kept" : "new value renamed in")")
            ledger.diskMishap()
            if !kept { ledger.stored(data, key: key, by: incarnation) }
            onCrash(incarnation)
            kill(incarnation)
            throw StoreError.writeFailed(key: key, reason: "the process has ended")
        }
    }

    /// Caller holds `lock`.
    private func commit(_ data: Data?, _ key: String) {
        values[key] = data
        if let data { committed[key, default: []].insert(data) }
    }

    fileprivate func acquire(by incarnation: Int) async throws(StoreError) -> any StoreLease {
        let lease: Int? = lock.withLock { () -> Int? in
            if dead.contains(incarnation) { return nil }
            nextLease += 1
            return nextLease
        }
        guard let lease else { throw StoreError.busy(waited: 0) }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted = lock.withLock { () -> Bool in
                    if holder == nil {
                        holder = (incarnation, lease)
                        return true
                    }
                    waiters.append((incarnation, lease, continuation))
                    return false
                }
                if granted { continuation.resume() }
            }
        } catch {
            throw StoreError.busy(waited: 0)
        }
        return DiskLease(disk: self, incarnation: incarnation, lease: lease)
    }

    fileprivate func release(incarnation: Int, lease: Int) {
        let wake = lock.withLock { releaseLocked(ifHeldBy: incarnation, lease: lease) }
        wake?.resume()
    }

    /// Caller holds `lock`. Hands the lock to the next live waiter; returns its continuation to resume.
    private func releaseLocked(ifHeldBy incarnation: Int, lease: Int?) -> CheckedContinuation<Void, any Error>? {
        guard let current = holder, current.incarnation == incarnation, lease == nil || current.lease == lease else { return nil }
        holder = nil
        while !waiters.isEmpty {
            let next = waiters.removeFirst()
            if dead.contains(next.incarnation) { continue }
            holder = (next.incarnation, next.lease)
            return next.continuation
        }
        return nil
    }
}

/// One process's handle on the shared ``SimulatedDisk``.
struct DiskView: SecureStore {
    let disk: SimulatedDisk
    let incarnation: Int

    func data(forKey key: String) throws -> Data? { try disk.read(key, by: incarnation) }
    func set(_ data: Data, forKey key: String) throws { try disk.write(data, key, by: incarnation) }
    func removeValue(forKey key: String) throws { try disk.write(nil, key, by: incarnation) }
    func keys() throws -> [String] { try disk.keys(by: incarnation) }
    func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        try await disk.acquire(by: incarnation)
    }
}

/// A held lock on the simulated disk; releasing twice is harmless.
private struct DiskLease: StoreLease {
    let disk: SimulatedDisk
    let incarnation: Int
    let lease: Int
    func release() { disk.release(incarnation: incarnation, lease: lease) }
}
