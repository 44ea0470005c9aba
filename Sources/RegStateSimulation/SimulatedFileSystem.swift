#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState

/// An in-memory file system under the REAL ``FileSecureStore`` and ``FileJournal`` (through RegState's package
/// `StorageFileSystem` seam), shared by every process of a run, with faults drawn from the run's seed.
///
/// The durability model, which is what a crash keeps:
/// - A file's bytes are durable up to its last `fsync`; the writes and truncations since are pending, in order.
/// - A name change (create, rename, unlink, mkdir) is durable once its directory is `fsync`ed; pending ones are kept
///   in order.
/// - A **process crash** (at a chosen system call, or when the world kills a process) closes that process's
///   descriptors and releases its `flock`s; the kernel keeps everything it was given, so the files stay as they are.
/// - A **power loss** kills every process; each file keeps its durable bytes plus a seeded prefix of its pending
///   changes (the last one possibly cut short: a torn write), and the names keep their durable state plus a seeded
///   prefix of the pending name changes (a rename that did not happen).
///
/// Faults: ``crashPercent`` arms a crash at a seeded index among the next system calls (a third of them power
/// losses); the call at that index happens or not (a write, partly), then its process dies. ``writeFailurePercent``
/// makes writes under the store directory fail with `ENOSPC` (full disk) or `EIO`, and some `fsync`s with `EIO`;
/// unlinks always work. Writes are sometimes short (a prefix), as POSIX allows.
public final class SimulatedFileSystem: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    let lock = NSLock()
    struct Node {
        var isDirectory: Bool
        var mode: mode_t
        var data: [UInt8] = []
        var durable: [UInt8] = []
        var pending: [FileChange] = []
    }
    enum FileChange {
        case write(offset: Int, bytes: [UInt8])
        case truncate(Int)
    }
    enum NameChange {
        case link(String, Int)
        case unlink(String)
        case rename(String, String)
    }
    struct OpenFile {
        var node: Int
        var path: String
        var incarnation: Int
        var offset = 0
        var append: Bool
        var canRead: Bool
        var canWrite: Bool
    }
    /// What a system call chosen as a crash point does.
    struct CrashPoint {
        var powerLoss: Bool
        /// Whether the call's effect happens before the process dies.
        var applied: Bool
    }

    var nodes: [Int: Node] = [1: Node(isDirectory: true, mode: 0o755)]
    var names: [String: Int] = ["/": 1]
    var durableNames: [String: Int] = ["/": 1]
    var pendingNames: [(directory: String, change: NameChange)] = []
    var open: [Int32: OpenFile] = [:]
    var locks: [Int: Int32] = [:]
    var nextDescriptor: Int32 = 3
    var nextNode = 2
    var dead: Set<Int> = []
    var known: Set<Int> = []
    var random: SeededRandom
    var calls = 0
    var crashAt: Int?
    var lockClock: TimeInterval = 0
    /// The launch-budget world's clock, which async lock waits sleep on (``SimulatedFileSystem/Calls/pause(nanoseconds:)``).
    var virtualClock: SimulationClock?
    /// Whether every slot's journal is the one shared file (the shared-journal world): then a write to it is now and
    /// then where its process dies (``armSharedAppendCrash(_:)``).
    var sharesJournal = false
    /// Each journal's bytes as last checked, and what they held (``parsedJournal(_:at:)``).
    var journalParses: [String: (bytes: Data, parsed: JournalFraming.Parsed)] = [:]
    /// Whether those crashes are on (off for the heal).
    var sharedAppendCrashes = false
    var failPercent = 0
    var crashRate = 0
    /// Values handed to the store under each key (the old-or-new check).
    var committed: [String: Set<Data>] = [:]
    var lastCredentials: [UInt8]?
    /// Trace lines of faults injected during the current call, written out after the lock is released.
    var pendingNotes: [String] = []
    /// `durable-writes` violations found during the current call, reported after the lock is released.
    var pendingViolations: [String] = []
    /// The files whose durability is checked at a power loss (`true`: a journal, compared by complete lines).
    var watched: [String: Bool] = [:]
    /// Per tracked file, the contents a power loss may leave (see `checkSurvivors`).
    var survivable: [String: [Data?]] = [:]
    /// Writes and syncs under this directory may fail (the store); the journals only crash.
    let storeDirectory: String
    /// Where the journals are: the store directory's parent (worked out once: every step asks for each journal).
    let journalDirectory: String
    /// The credentials record's path, which every system call's report looks at.
    let credentialsPath: String
    /// Whether the store's records are files here (a ``FileSecureStore``); `false` for an App Group container, where
    /// only the lock file and the journals are, the records being Keychain items (``SimulatedSharedSession``).
    let holdsStore: Bool
    let ledger: Ledger
    /// Called (outside the lock) with each incarnation a crash point or a power loss killed.
    let onCrash: @Sendable (Int) -> Void
    /// The owner of every file.
    static let user: uid_t = 501

    /// A file system whose faults draw from `random`, reporting to `ledger`, with the store in `storeDirectory`
    /// (created, with its parents, durably); `holdsStore` says whether the store's records are files there.
    public init(random: SeededRandom, ledger: Ledger, storeDirectory: String = "/sim/store", holdsStore: Bool = true,
                onCrash: @escaping @Sendable (Int) -> Void) {
        self.random = random
        self.ledger = ledger
        self.storeDirectory = storeDirectory
        self.holdsStore = holdsStore
        credentialsPath = storeDirectory + "/credentials"
        journalDirectory = (storeDirectory as NSString).deletingLastPathComponent
        self.onCrash = onCrash
        var path = ""
        for component in storeDirectory.split(separator: "/") {
            path += "/" + component
            let id = nextNode
            nextNode += 1
            nodes[id] = Node(isDirectory: true, mode: 0o700)
            names[path] = id
            durableNames[path] = id
        }
    }

    /// Percent of writes (and a quarter as many `fsync`s) under the store directory that fail.
    public var writeFailurePercent: Int {
        get { lock.withLock { failPercent } }
        set { lock.withLock { failPercent = newValue } }
    }

    /// How often crashes come: when set above zero, a crash is armed at a seeded index among the next
    /// `1000 / percent` system calls, and armed again after each one fires.
    public var crashPercent: Int {
        get { lock.withLock { crashRate } }
        set { lock.withLock { crashRate = newValue; armCrash() } }
    }

    /// How many system calls the processes made.
    public var systemCalls: Int { lock.withLock { calls } }

    /// Arms a crash at exactly the `index`-th system call from now (1 = the next one): for tests.
    public func crash(atCall index: Int, powerLoss: Bool) {
        lock.withLock {
            crashAt = calls + index
            forcedPowerLoss = powerLoss
        }
    }
    var forcedPowerLoss: Bool?

    /// The system calls of incarnation `incarnation` of a process.
    package func calls(for incarnation: Int) -> SimulatedFileSystemCalls {
        lock.withLock { _ = known.insert(incarnation) }
        return SimulatedFileSystemCalls(fileSystem: self, incarnation: incarnation)
    }

    /// Ends `incarnation`: its descriptors close, its locks are released, it can make no more calls.
    public func kill(_ incarnation: Int) {
        lock.withLock { killLocked(incarnation) }
    }

    /// Cuts the power now: every process dies, and only what was durable (plus a seeded prefix of the rest) stays.
    public func cutPower() {
        let killed = lock.withLock { powerLossLocked() }
        afterCrash(killed: killed, note: "fs    POWER LOSS (world)")
    }

    /// The bytes at `path` now, as the next process would read them; `nil` when there is no file.
    public func contents(_ path: String) -> Data? {
        lock.withLock {
            guard let id = names[path], let node = nodes[id], !node.isDirectory else { return nil }
            return Data(node.data)
        }
    }

    // MARK: Inside the lock

    /// Caller holds `lock`.
    func armCrash() {
        guard crashRate > 0 else {
            crashAt = nil
            return
        }
        crashAt = calls + 1 + random.below(max(2, 1000 / crashRate))
    }

    /// Caller holds `lock`. Counts a call of `incarnation`; the crash point when this call is the armed one.
    func begin(_ incarnation: Int, _ name: String) throws(SystemCallError) -> CrashPoint? {
        if dead.contains(incarnation) { throw SystemCallError(name, message: "the process has ended") }
        calls += 1
        guard calls == crashAt else { return nil }
        let powerLoss = forcedPowerLoss ?? random.chance(33)
        forcedPowerLoss = nil
        crashAt = nil
        let point = CrashPoint(powerLoss: powerLoss, applied: random.chance(50))
        return point
    }

    /// Caller holds `lock`.
    func killLocked(_ incarnation: Int) {
        dead.insert(incarnation)
        for (fd, file) in open where file.incarnation == incarnation {
            if locks[file.node] == fd { locks[file.node] = nil }
            open[fd] = nil
        }
    }

    /// Caller holds `lock`. Reverts to what was durable plus seeded prefixes; returns the incarnations killed.
    func powerLossLocked() -> [Int] {
        let before = watchedContents()
        var kept = durableNames
        let keep = random.below(pendingNames.count + 1)
        for entry in pendingNames.prefix(keep) { Self.apply(entry.change, to: &kept) }
        pendingNames = []
        names = kept
        durableNames = kept
        for id in nodes.keys.sorted() {
            guard var node = nodes[id] else { continue }
            var data = node.durable
            let applied = random.below(node.pending.count + 1)
            for (index, change) in node.pending.prefix(applied).enumerated() {
                var change = change
                // The last change kept may be cut short: a torn write.
                if index == applied - 1, random.chance(50), case .write(let offset, let bytes) = change {
                    change = .write(offset: offset, bytes: Array(bytes.prefix(random.below(bytes.count + 1))))
                }
                Self.apply(change, to: &data)
            }
            node.data = data
            node.durable = data
            node.pending = []
            nodes[id] = node
        }
        let reachable = Set(names.values)
        nodes = nodes.filter { reachable.contains($0.key) }
        checkSurvivors(before: before)
        open = [:]
        locks = [:]
        let killed = known.subtracting(dead).sorted()
        dead.formUnion(known)
        return killed
    }

    static func apply(_ change: NameChange, to names: inout [String: Int]) {
        switch change {
        case .link(let path, let id): names[path] = id
        case .unlink(let path): names[path] = nil
        case .rename(let from, let to):
            names[to] = names[from]
            names[from] = nil
        }
    }

    /// Applies `change` to `data`.
    static func apply(_ change: FileChange, to data: inout [UInt8]) {
        switch change {
        case .write(let offset, let bytes):
            if data.count < offset + bytes.count { data += [UInt8](repeating: 0, count: offset + bytes.count - data.count) }
            data.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        case .truncate(let length):
            if data.count > length { data.removeSubrange(length...) } else { data += [UInt8](repeating: 0, count: length - data.count) }
        }
    }

    // MARK: Outside the lock

    /// Tells the world whom a crash killed and what the store holds now.
    func afterCrash(killed: [Int], note: String, powerLoss: Bool = true) {
        ledger.note(note)
        let violations = lock.withLock { () -> [String] in
            defer { pendingViolations = [] }
            return pendingViolations
        }
        for violation in violations { ledger.violation("durable-writes", violation) }
        ledger.diskMishap()
        for incarnation in killed { onCrash(incarnation) }
        // Keychain items are not files here: a power loss leaves every one a call wrote.
        guard holdsStore else { return }
        reportCredentials(by: nil)
        // What a write put on the disk before the power went may be gone: the disk knows only what it holds now.
        if powerLoss { ledger.storageReverted(to: contents(credentialsPath)) }
    }

    /// Traces (and tells the ledger) when the credentials record the next process would read has changed: by a call
    /// of `process`, or by a crash or power loss (`nil`).
    func reportCredentials(by process: Int?) {
        // The file's bytes as an array that shares its storage with the node: unchanged, they compare at once.
        let changed = lock.withLock { () -> Data?? in
            let now = names[credentialsPath].flatMap { nodes[$0] }.flatMap { $0.isDirectory ? nil : $0.data }
            guard now != lastCredentials else { return nil }
            lastCredentials = now
            return .some(now.map { Data($0) })
        }
        guard case .some(let now) = changed else { return }
        ledger.note("disk  credentials \(now == nil ? "removed" : "now")\(Ledger.describe(now, key: "credentials"))")
        ledger.stored(now, key: "credentials", by: process)
    }
}
