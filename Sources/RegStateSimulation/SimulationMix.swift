import Foundation

/// The every-world campaign (`regstate-sim --world mixed`): each life's world, disk and number of engine instances
/// drawn from its seed, from a table of cells weighted so that every world gets a real share of the lives and the
/// Keychain disks (the Apple users' store) about half of them. A drawn life is an ordinary run with its world, disk
/// and processes set, so its replay names them and replays exactly without `--world mixed`.
public struct SimulationMix: Sendable, Equatable {
    /// The world of the life.
    public var world: SimulationWorld
    /// The disk of the life.
    public var storage: SimulatedStorageKind
    /// The engine instances sharing the store.
    public var processes: Int

    /// The name a campaign reports the cell's lives under (``name(world:storage:)``).
    public var name: String { Self.name(world: world, storage: storage) }

    /// The name of lives in `world` on `storage`: the world, after its disk when that is not the file store
    /// (`keychain/host`, `shared-session/plain`).
    public static func name(world: SimulationWorld, storage: SimulatedStorageKind) -> String {
        storage == .files ? world.rawValue : "\(storage.rawValue)/\(world.rawValue)"
    }

    /// Every cell with its weight: each world on the file store (shared-journal and together with three processes);
    /// the Keychain item model (``SimulatedKeychain``) and the shared session (``SimulatedSharedSession``: the
    /// Keychain with the App Group's lock file and journals, crashes and power losses) with every world that runs on
    /// them, some with three or four processes (an app and its extensions); and the store model. The memory world
    /// runs its lives at the campaign's length (its long lives are `--world memory --steps 3000`).
    public static let cells: [(mix: SimulationMix, weight: Int)] = [
        (SimulationMix(world: .plain, storage: .files, processes: 2), 5),
        (SimulationMix(world: .dpop, storage: .files, processes: 2), 4),
        (SimulationMix(world: .host, storage: .files, processes: 2), 4),
        (SimulationMix(world: .pushedAuthorization, storage: .files, processes: 2), 3),
        (SimulationMix(world: .launchBudget, storage: .files, processes: 2), 3),
        (SimulationMix(world: .memory, storage: .files, processes: 2), 2),
        (SimulationMix(world: .sharedJournal, storage: .files, processes: 3), 3),
        (SimulationMix(world: .rejectingBackend, storage: .files, processes: 2), 3),
        (SimulationMix(world: .forgedRedirect, storage: .files, processes: 2), 3),
        (SimulationMix(world: .anotherClient, storage: .files, processes: 2), 3),
        (SimulationMix(world: .refreshedIDToken, storage: .files, processes: 2), 3),
        (SimulationMix(world: .together, storage: .files, processes: 3), 3),
        (SimulationMix(world: .device, storage: .files, processes: 2), 3),
        (SimulationMix(world: .stepUp, storage: .files, processes: 2), 3),
        (SimulationMix(world: .plain, storage: .model, processes: 2), 2),
        (SimulationMix(world: .plain, storage: .keychain, processes: 2), 3),
        (SimulationMix(world: .dpop, storage: .keychain, processes: 2), 3),
        (SimulationMix(world: .host, storage: .keychain, processes: 2), 3),
        (SimulationMix(world: .together, storage: .keychain, processes: 3), 2),
        (SimulationMix(world: .forgedRedirect, storage: .keychain, processes: 2), 2),
        (SimulationMix(world: .anotherClient, storage: .keychain, processes: 2), 2),
        (SimulationMix(world: .rejectingBackend, storage: .keychain, processes: 2), 2),
        (SimulationMix(world: .refreshedIDToken, storage: .keychain, processes: 2), 2),
        (SimulationMix(world: .device, storage: .keychain, processes: 2), 2),
        (SimulationMix(world: .stepUp, storage: .keychain, processes: 2), 2),
        (SimulationMix(world: .plain, storage: .sharedSession, processes: 2), 4),
        (SimulationMix(world: .plain, storage: .sharedSession, processes: 4), 2),
        (SimulationMix(world: .dpop, storage: .sharedSession, processes: 2), 3),
        (SimulationMix(world: .host, storage: .sharedSession, processes: 2), 4),
        (SimulationMix(world: .together, storage: .sharedSession, processes: 3), 3),
        (SimulationMix(world: .sharedJournal, storage: .sharedSession, processes: 3), 3),
        (SimulationMix(world: .pushedAuthorization, storage: .sharedSession, processes: 2), 2),
        (SimulationMix(world: .launchBudget, storage: .sharedSession, processes: 2), 2),
        (SimulationMix(world: .forgedRedirect, storage: .sharedSession, processes: 2), 2),
        (SimulationMix(world: .anotherClient, storage: .sharedSession, processes: 2), 2),
        (SimulationMix(world: .rejectingBackend, storage: .sharedSession, processes: 2), 2),
        (SimulationMix(world: .refreshedIDToken, storage: .sharedSession, processes: 2), 2),
        (SimulationMix(world: .device, storage: .sharedSession, processes: 2), 2),
        (SimulationMix(world: .stepUp, storage: .sharedSession, processes: 2), 2),
    ]

    /// The cell of `seed` among the cells whose disk `disk` admits (every cell when `nil`; ``SimulatedStorageKind/keychain``
    /// admits both Keychain disks), drawn by weight from a stream of its own.
    public static func drawn(for seed: UInt64, disk: SimulatedStorageKind? = nil) -> SimulationMix {
        let admitted = cells.filter { cell in
            guard let disk else { return true }
            return disk == .keychain ? cell.mix.storage.isKeychain : cell.mix.storage == disk
        }
        var random = SeededRandom(seed: seed ^ 0x6A09_E667_F3BC_C908)
        var roll = random.below(admitted.reduce(0) { $0 + $1.weight })
        for cell in admitted {
            if roll < cell.weight { return cell.mix }
            roll -= cell.weight
        }
        return admitted.last?.mix ?? cells[0].mix
    }
}
