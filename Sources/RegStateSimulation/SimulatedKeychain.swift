import Foundation
import RegState

/// Apple's Keychain as the processes of a run share it: the ``SimulatedDisk`` model's items — each atomic
/// on its own, shared between processes, with its write failures and crash points — paired, as
/// `RegStateDependencies.sharedSession` pairs them, through a ``LockedSecureStore`` with a lock of its own between
/// processes (the model's lock, which the kernel releases when a holder dies, stands in for the App Group's lock
/// file), and a device that locks: while it is locked every item call fails with
/// ``StoreError/interactionNotAllowed(key:)``, as `errSecInteractionNotAllowed` does before the first unlock.
///
/// The device locks and unlocks at random (drawn from its own stream of the seed) only while disk faults are on;
/// turning them off (an action, or the heal) unlocks it for good, so the heal checks that every session survived.
final class SimulatedKeychain: SimulatedStorage, @unchecked Sendable {
    // @unchecked: the disk is thread-safe, and `device` is guarded by its own lock.
    private let disk: SimulatedDisk
    private let device: SimulatedDeviceLock

    /// A keychain over `disk`, its device locking with draws from `random`, noted in `ledger`.
    init(disk: SimulatedDisk, random: SeededRandom, ledger: Ledger) {
        self.disk = disk
        device = SimulatedDeviceLock(random: random, ledger: ledger)
    }

    func store(for incarnation: Int) -> any SecureStore {
        let view = disk.view(for: incarnation)
        return LockedSecureStore(items: DeviceLockedItems(items: view, device: device), lock: ViewLock(view: view))
    }

    func journal(for slot: ProcessSlot, incarnation: Int, liveness: Liveness) -> any EventJournal {
        disk.journal(for: slot, incarnation: incarnation, liveness: liveness)
    }

    func journalLineCount(_ slot: ProcessSlot) -> Int { disk.journalLineCount(slot) }
    func kill(_ incarnation: Int) { disk.kill(incarnation) }
    func peek(_ key: String) -> Data? { disk.peek(key) }
    func wasCommitted(_ data: Data, under key: String) -> Bool { disk.wasCommitted(data, under: key) }
    func checkFiles(_ slots: [ProcessSlot]) { disk.checkFiles(slots) }
    var removalRefusedByDevice: Bool { device.refusedRemoval }

    var writeFailurePercent: Int {
        get { disk.writeFailurePercent }
        set {
            disk.writeFailurePercent = newValue
            device.setLocking(newValue > 0 || disk.crashPercent > 0)
        }
    }

    var crashPercent: Int {
        get { disk.crashPercent }
        set {
            disk.crashPercent = newValue
            device.setLocking(newValue > 0 || disk.writeFailurePercent > 0)
        }
    }
}

/// The device of a ``SimulatedKeychain``: locked or not, flipped at random on item calls while locking is on.
final class SimulatedDeviceLock: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    private let lock = NSLock()
    private var random: SeededRandom
    private var locked = false
    private var locking = false
    private let ledger: Ledger
    /// The session records whose removal the device refused, with the session the credentials record held then.
    private var refused: [String: String?] = [:]
    /// Percent of item calls on an unlocked device that find it locked, and on a locked one that find it unlocked.
    static let lockPercent = 5
    static let unlockPercent = 20
    /// The draws of the locks mid-way (``lockMidway(_:)``), from a stream of their own; `nil`: the device locks only
    /// on item calls (the ``SimulatedKeychain``, whose recorded seeds keep their lives).
    private var midwayRandom: SeededRandom?
    /// Percent of the moments mid-way (an item written, a refresh answer arriving) at which the device locks.
    static let midwayPercent = 30

    /// A device drawing from `random` (and, when `midway` is given, locking mid-way with draws from it).
    init(random: SeededRandom, ledger: Ledger, midway: SeededRandom? = nil) {
        self.random = random
        self.ledger = ledger
        midwayRandom = midway
    }

    /// A moment in the middle of an operation (`moment` says which): while locking is on, the device locks now at
    /// random, so the operation's next item call (the second write of a registration, the write of a renewal's
    /// rotated tokens) meets a locked device.
    func lockMidway(_ moment: String) {
        let locks = lock.withLock { () -> Bool in
            guard locking, !locked, var draws = midwayRandom else { return false }
            let locks = draws.chance(Self.midwayPercent)
            midwayRandom = draws
            if locks { locked = true }
            return locks
        }
        if locks { ledger.note("disk  device locked (\(moment))") }
    }

    /// Turns random locking on or off; off also unlocks the device.
    func setLocking(_ on: Bool) {
        let unlocked = lock.withLock { () -> Bool in
            locking = on
            guard !on, locked else { return false }
            locked = false
            return true
        }
        if unlocked { ledger.note("disk  device unlocked (faults off)") }
    }

    /// Whether a removal of a session's record (credentials, DPoP key) was refused since one was last removed, or
    /// written for another session (a renewal of the session whose removal was refused keeps it excused: that
    /// session ends at its next contact with the backend, which ended it).
    var refusedRemoval: Bool { lock.withLock { !refused.isEmpty } }

    /// Notes that a removal of `key` was refused (`true`, with the session `data` holds) or that the session's record
    /// `key` was written (`data`) or removed (`nil`).
    func noteSessionRecord(_ key: String, refused: Bool, data: Data? = nil) {
        guard ["credentials", DPoPKeyStore.recordKey].contains(key) else { return }
        let session = data.flatMap { (try? JSONSerialization.jsonObject(with: $0) as? [String: Any])?["session_id"] as? String }
        lock.withLock {
            if refused {
                self.refused[key] = .some(session)
            } else if data != nil, key == "credentials", let excused = self.refused[key] ?? nil, excused == session {
                return
            } else {
                self.refused[key] = nil
            }
        }
    }

    /// ``check(_:)`` for a write or a removal: one the device refuses is a disk mishap, as a full disk's is (a
    /// renewal's rotated refresh token it refused to store is lost, like one a full disk refused).
    func checkWrite(_ key: String) throws(StoreError) {
        do {
            try check(key)
        } catch {
            ledger.diskMishap()
            throw error
        }
    }

    /// Draws whether the device is locked for this call, and throws when it is.
    func check(_ key: String) throws(StoreError) {
        let (isLocked, flipped) = lock.withLock { () -> (Bool, Bool) in
            guard locking else { return (locked, false) }
            let flip = random.chance(locked ? Self.unlockPercent : Self.lockPercent)
            if flip { locked.toggle() }
            return (locked, flip)
        }
        if flipped { ledger.note("disk  device \(isLocked ? "locked" : "unlocked")") }
        if isLocked { throw .interactionNotAllowed(key: key) }
    }
}

/// One process's items on a device that may be locked.
struct DeviceLockedItems: SecureItemStore {
    let items: any SecureItemStore
    let device: SimulatedDeviceLock

    func data(forKey key: String) throws(StoreError) -> Data? {
        // The pending device authorization is read under the store's lock to write a poll's answer back: a read the
        // device refuses leaves that answer in memory only, as a refused write does, so it is a disk mishap too
        // (seed 262: a slow_down's widening lost with its process after the device refused the read).
        if key == DeviceAudit.recordKey { try device.checkWrite(key) } else { try device.check(key) }
        return try items.data(forKey: key)
    }

    func set(_ data: Data, forKey key: String) throws(StoreError) {
        try device.checkWrite(key)
        try items.set(data, forKey: key)
        device.noteSessionRecord(key, refused: false, data: data)
        device.lockMidway("after a write of \(key)")
    }

    func removeValue(forKey key: String) throws(StoreError) {
        do {
            try device.checkWrite(key)
        } catch {
            device.noteSessionRecord(key, refused: true, data: try? items.data(forKey: key))
            throw error
        }
        try items.removeValue(forKey: key)
        device.noteSessionRecord(key, refused: false)
    }

    func keys() throws(StoreError) -> [String] {
        try device.check("")
        return try items.keys()
    }
}

/// The lock half of one process's view of the disk, as a ``StoreLock`` of its own.
struct ViewLock: StoreLock {
    let view: any SecureStore
    func acquire(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        try await view.acquireExclusiveAccess(timeout: timeout)
    }
}
