import Foundation
import RegState

/// An app and its extensions on Apple as `RegStateDependencies.sharedSession` builds them: the Keychain's items (the
/// ``SimulatedDisk`` model's, each atomic on its own, with write failures and crash points) on a device that locks
/// (``SimulatedDeviceLock``: at random on item calls, and also right after an item is written and as a refresh
/// answer arrives, so that the next write of a registration or a renewal meets it locked), and the App Group container on a ``SimulatedFileSystem``, where the REAL
/// ``FileStoreLock`` that orders renewals and the REAL ``FileJournal``s live, with its crashes at system calls and its
/// power losses. A power loss kills every process; the Keychain keeps every item a call wrote (its own database is
/// durable once a call returns), the container's files keep what was synced.
///
/// Its journals are one per slot (the per-process replay checks apply), or in the shared-journal world the one file
/// every process appends to, as `sharedSession` gives them.
final class SimulatedSharedSession: SimulatedStorage, @unchecked Sendable {
    // @unchecked: the disk, the file system and the device are thread-safe.
    private let items: SimulatedDisk
    /// The App Group container.
    let container: SimulatedFileSystem
    private let device: SimulatedDeviceLock

    /// Items drawing their faults from `itemRandom`, the container from `containerRandom`, the device from
    /// `deviceRandom`; `onCrash` learns of every process a crash point or a power loss killed.
    init(itemRandom: SeededRandom, containerRandom: SeededRandom, deviceRandom: SeededRandom, ledger: Ledger,
         onCrash: @escaping @Sendable (Int) -> Void) {
        // A process that dies in either place dies in both: the kernel releases its lock file, and it writes no item.
        let relay = CrashRelay()
        items = SimulatedDisk(random: itemRandom, ledger: ledger) { relay.crashed($0) }
        container = SimulatedFileSystem(random: containerRandom, ledger: ledger, storeDirectory: "/sim/app-group/RegState",
                                        holdsStore: false) { relay.crashed($0) }
        var deviceRandom = deviceRandom
        device = SimulatedDeviceLock(random: deviceRandom.split(), ledger: ledger, midway: deviceRandom.split())
        let items = items
        let container = container
        relay.route { incarnation in
            onCrash(incarnation)
            items.kill(incarnation)
            container.kill(incarnation)
        }
    }

    func store(for incarnation: Int) -> any SecureStore {
        LockedSecureStore(items: DeviceLockedItems(items: items.view(for: incarnation), device: device),
                          lock: FileStoreLock(path: container.storeDirectory + "/.lock",
                                              fileSystem: container.calls(for: incarnation)))
    }

    /// A refresh answer reached a live process: the device may lock before the renewal stores it.
    func refreshAnswered() { device.lockMidway("as a refresh answer arrives") }

    func journal(for slot: ProcessSlot, incarnation: Int, liveness: Liveness) -> any EventJournal {
        container.journal(for: slot, incarnation: incarnation, liveness: liveness)
    }

    func journalLineCount(_ slot: ProcessSlot) -> Int { container.journalLineCount(slot) }

    func kill(_ incarnation: Int) {
        items.kill(incarnation)
        container.kill(incarnation)
    }

    func peek(_ key: String) -> Data? { items.peek(key) }
    func wasCommitted(_ data: Data, under key: String) -> Bool { items.wasCommitted(data, under: key) }
    func checkFiles(_ slots: [ProcessSlot]) { container.checkJournals(slots) }
    var removalRefusedByDevice: Bool { device.refusedRemoval }
    var fileSystem: SimulatedFileSystem? { container }

    var writeFailurePercent: Int {
        get { items.writeFailurePercent }
        set {
            items.writeFailurePercent = newValue
            container.writeFailurePercent = newValue
            device.setLocking(newValue > 0 || items.crashPercent > 0)
        }
    }

    var crashPercent: Int {
        get { items.crashPercent }
        set {
            items.crashPercent = newValue
            container.crashPercent = newValue
            device.setLocking(newValue > 0 || items.writeFailurePercent > 0)
        }
    }
}
