import Foundation
import RegState

/// Loads and saves a ``World`` as one JSON file in the persistence directory, atomically (through the package's
/// `AtomicFile`: temporary file, fsync, rename, fsync of the directory).
struct WorldFile: Sendable {
    /// The file's name inside the persistence directory.
    static let fileName = "simulator-world.json"

    /// The file.
    let url: URL

    /// A world file in `directory`, which is created (mode 0700) when missing.
    ///
    /// - Throws: ``SimulatorError/worldUnwritable(_:)`` when the directory cannot be created.
    init(directory: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SimulatorError.worldUnwritable("cannot create \(directory.path): \(String(describing: error))")
        }
        url = directory.appendingPathComponent(Self.fileName)
    }

    /// The lock file next to the world: held for each request, as a server holds a database transaction.
    var lockPath: String { url.deletingLastPathComponent().appendingPathComponent(".simulator-world.lock").path }

    /// Takes the world's lock between processes (waiting for the holder's request to finish).
    ///
    /// - Throws: ``SimulatorError/worldUnreadable(_:)`` when the lock file cannot be used.
    func lock() throws -> FileLock {
        do {
            if let held = try FileLock.take(lockPath, waiting: true) { return held }
        } catch {
            throw SimulatorError.worldUnreadable("cannot lock \(lockPath): \(error.reason)")
        }
        throw SimulatorError.worldUnreadable("cannot lock \(lockPath)")
    }

    /// The saved world, or `nil` when none was saved yet.
    ///
    /// - Throws: ``SimulatorError/worldUnreadable(_:)`` when the file exists but is not a world.
    func load() throws -> World? {
        let contents: Data?
        do {
            contents = try AtomicFile.contents(of: url.path)
        } catch {
            throw SimulatorError.worldUnreadable("cannot read \(url.path): \(error.reason)")
        }
        guard let data = contents else { return nil }
        let decoder = RecordedTime.decoder()
        let world: World
        do {
            world = try decoder.decode(World.self, from: data)
        } catch {
            throw SimulatorError.worldUnreadable(
                "\(url.path) is not a simulator world; move it aside to start a new world")
        }
        guard world.version == World.currentVersion else {
            throw SimulatorError.worldUnreadable(
                "\(url.path) has format version \(world.version), not \(World.currentVersion); move it aside to start a new world")
        }
        return world
    }

    /// Replaces the saved world with `world`, atomically and durably.
    ///
    /// - Throws: ``SimulatorError/worldUnwritable(_:)``.
    func save(_ world: World) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(world)
        } catch {
            throw SimulatorError.worldUnwritable("cannot encode the world")
        }
        do {
            try AtomicFile.write(data, to: url.path, mode: 0o600)
        } catch {
            throw SimulatorError.worldUnwritable("cannot write \(url.path): \(error.reason)")
        }
    }
}
