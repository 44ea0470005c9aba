import Foundation
import RegState

/// What the processes of a run keep on the device: their store and journals. Two kinds: the ``SimulatedDisk`` model
/// of the store contract (journals in memory), or the real ``FileSecureStore`` and ``FileJournal`` over a
/// ``SimulatedFileSystem`` (the default).
protocol SimulatedStorage: AnyObject, Sendable {
    /// The store incarnation `incarnation` opens at launch.
    func store(for incarnation: Int) -> any SecureStore
    /// The journal of `slot` as incarnation `incarnation` opens it.
    func journal(for slot: ProcessSlot, incarnation: Int, liveness: Liveness) -> any EventJournal
    /// The intact lines in `slot`'s journal now.
    func journalLineCount(_ slot: ProcessSlot) -> Int
    /// Ends `incarnation`: its locks are released and it can touch nothing any more.
    func kill(_ incarnation: Int)
    /// The value under `key` now, as the next process to start would read it.
    func peek(_ key: String) -> Data?
    /// Whether `data` is a value some write handed to the store under `key` (the torn-write check).
    func wasCommitted(_ data: Data, under key: String) -> Bool
    /// Percent of writes that fail.
    var writeFailurePercent: Int { get set }
    /// How often processes crash in the middle of storage calls.
    var crashPercent: Int { get set }
    /// The storage's own invariants over what is on the device now (the journals' integrity).
    func checkFiles(_ slots: [ProcessSlot])
    /// Whether the device itself refused to remove a session's record since it was last written or removed (a
    /// locked device, ``SimulatedKeychain``): then no engine can have cleared it, and logout-clears waits for a
    /// process to remove it once the device is unlocked.
    var removalRefusedByDevice: Bool { get }
    /// The simulated file system the journals are on, when they are files (the file store, the App Group container
    /// of ``SimulatedSharedSession``); `nil` when they are in memory.
    var fileSystem: SimulatedFileSystem? { get }
}

extension SimulatedStorage {
    /// Storage whose device never refuses: a file system or the store model.
    var removalRefusedByDevice: Bool { false }
    /// Journals in memory.
    var fileSystem: SimulatedFileSystem? { nil }
}

/// Which storage a run's processes use.
public enum SimulatedStorageKind: String, Sendable, Equatable, CaseIterable {
    /// The real file store and journal over the simulated file system.
    case files
    /// The model of the store contract (``SimulatedDisk``), journals in memory.
    case model
    /// Apple's Keychain shared by an app and its extensions (``SimulatedKeychain``): the model's items, each atomic
    /// on its own, paired with a separate lock between processes, on a device that locks.
    case keychain
    /// An app and its extensions on Apple as `RegStateDependencies.sharedSession` builds them
    /// (``SimulatedSharedSession``): the Keychain's items on a device that locks, also mid-write and as a refresh
    /// answer arrives, and the real lock file and journals in the App Group container on the simulated file system,
    /// with its crashes and power losses.
    case sharedSession = "shared-session"

    /// Whether the store is the Keychain's items (on a device that locks).
    public var isKeychain: Bool { self == .keychain || self == .sharedSession }
}

extension SimulatedDisk: SimulatedStorage {
    func store(for incarnation: Int) -> any SecureStore { view(for: incarnation) }

    func journal(for slot: ProcessSlot, incarnation: Int, liveness: Liveness) -> any EventJournal {
        JournalView(journal: slot.journal, incarnation: incarnation, liveness: liveness)
    }

    func journalLineCount(_ slot: ProcessSlot) -> Int { (try? slot.journal.read().lines.count) ?? 0 }

    func checkFiles(_ slots: [ProcessSlot]) {}
}

extension SimulatedFileSystem: SimulatedStorage {
    var fileSystem: SimulatedFileSystem? { self }

    func store(for incarnation: Int) -> any SecureStore {
        do {
            let store = try FileSecureStore(directoryPath: storeDirectory, fileSystem: calls(for: incarnation))
            return RecordingStore(store: store, fileSystem: self)
        } catch {
            // The process died (or its disk failed) while opening the store: every later call fails the same way.
            return UnusableStore(reason: String(describing: error))
        }
    }

    func journal(for slot: ProcessSlot, incarnation: Int, liveness: Liveness) -> any EventJournal {
        do {
            let journal = try FileJournal(path: journalPath(slot), fileSystem: calls(for: incarnation))
            watch(journal.path, journal: true)
            return RecordingJournal(journal: journal, fileSystem: self)
        } catch {
            return UnusableJournal(error: error)
        }
    }

    func journalLineCount(_ slot: ProcessSlot) -> Int {
        contents(journalPath(slot)).map { parsedJournal($0, at: journalPath(slot)).lines.count } ?? 0
    }

    func checkFiles(_ slots: [ProcessSlot]) { checkJournals(slots) }

    /// Where slot `slot` keeps its journal: each process its own (replay-equals-live is checked per process), or in
    /// the shared-journal world one file for all.
    func journalPath(_ slot: ProcessSlot) -> String {
        journalDirectory + (sharesJournal ? "/journal-shared.log" : "/journal-\(slot.index).log")
    }

    func peek(_ key: String) -> Data? { contents(storeDirectory + "/" + key) }

    func wasCommitted(_ data: Data, under key: String) -> Bool { lock.withLock { committed[key]?.contains(data) ?? false } }

    /// A value is about to be handed to the store under `key`.
    func willWrite(_ data: Data, under key: String) { lock.withLock { _ = committed[key, default: []].insert(data) } }
}

/// The real store, with every value it is given remembered (the old-or-new check needs to know what "new" was).
struct RecordingStore: SecureStore {
    let store: FileSecureStore
    let fileSystem: SimulatedFileSystem

    func data(forKey key: String) throws(StoreError) -> Data? { try store.data(forKey: key) }
    func set(_ data: Data, forKey key: String) throws(StoreError) {
        fileSystem.willWrite(data, under: key)
        try recorded(key) { () throws(StoreError) in try store.set(data, forKey: key) }
    }
    func removeValue(forKey key: String) throws(StoreError) {
        try recorded(key) { () throws(StoreError) in try store.removeValue(forKey: key) }
    }

    /// Runs a write of `key` and reports its end, so that power losses can be checked against it.
    private func recorded(_ key: String, _ body: () throws(StoreError) -> Void) throws(StoreError) {
        let path = PlainPath.appending(key, to: store.directoryPath)
        fileSystem.watch(path, journal: false)
        do {
            try body()
            fileSystem.operationEnded(on: path, succeeded: true)
        } catch {
            fileSystem.operationEnded(on: path, succeeded: false)
            throw error
        }
    }
    func keys() throws(StoreError) -> [String] { try store.keys() }
    func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        try await store.acquireExclusiveAccess(timeout: timeout)
    }
}

/// The store of a process whose store could not be opened.
struct UnusableStore: SecureStore {
    let reason: String
    func data(forKey key: String) throws(StoreError) -> Data? { throw .unreadable(key: key, reason: reason) }
    func set(_ data: Data, forKey key: String) throws(StoreError) { throw .writeFailed(key: key, reason: reason) }
    func removeValue(forKey key: String) throws(StoreError) { throw .writeFailed(key: key, reason: reason) }
    func keys() throws(StoreError) -> [String] { throw .unreadable(key: "", reason: reason) }
    func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        throw StoreError.busy(waited: 0)
    }
}

/// The journal of a process whose journal could not be opened.
struct UnusableJournal: EventJournal {
    let error: JournalError
    func append(_ line: Data) throws(JournalError) { throw error }
    func read() throws(JournalError) -> JournalContents { throw error }
    func replaceAll(with lines: [Data]) throws(JournalError) { throw error }
}
