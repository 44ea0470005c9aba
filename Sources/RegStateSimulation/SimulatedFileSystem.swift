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
    /// Whether the crash armed by `crash(atCall:powerLoss:)` cuts the power (`nil`: a seeded choice).
    var forcedPowerLoss: Bool?
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

    /// How many system calls the processes made.
    public var systemCalls: Int { lock.withLock { calls } }

    /// The system calls of incarnation `incarnation` of a process.
    package func calls(for incarnation: Int) -> SimulatedFileSystemCalls {
        lock.withLock { _ = known.insert(incarnation) }
        return SimulatedFileSystemCalls(fileSystem: self, incarnation: incarnation)
    }

    /// The bytes at `path` now, as the next process would read them; `nil` when there is no file.
    public func contents(_ path: String) -> Data? {
        lock.withLock {
            guard let id = names[path], let node = nodes[id], !node.isDirectory else { return nil }
            return Data(node.data)
        }
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
