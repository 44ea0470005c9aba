import Foundation
import RegState
import RegStateTesting
import Testing

@Suite("FileSecureStore")
struct StorageFileSecureStoreTests {
    @Test("a missing directory is created 0700 (with its parents) and values are written 0600")
    func createsDirectoryAndFilesWithTightModes() throws {
        try withStorageScratch { scratch in
            let directory = scratch.appendingPathComponent("a/b/store", isDirectory: true)
            let store = try FileSecureStore(directory: directory)
            #expect(try storagePermissions(of: directory) == 0o700)
            try store.set(Data("v".utf8), forKey: "access_token")
            #expect(try storagePermissions(of: directory.appendingPathComponent("access_token")) == 0o600)
        }
    }

    @Test("an existing directory of ours is tightened to 0700")
    func tightensExistingDirectory() throws {
        try withStorageScratch { scratch in
            let directory = scratch.appendingPathComponent("store", isDirectory: true)
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            #expect(try storagePermissions(of: directory) == 0o755)
            _ = try FileSecureStore(directory: directory)
            #expect(try storagePermissions(of: directory) == 0o700)
        }
    }

    @Test("a file where the directory should be is an unusable location")
    func fileInPlaceOfDirectory() throws {
        try withStorageScratch { scratch in
            let file = scratch.appendingPathComponent("store")
            try Data("x".utf8).write(to: file)
            #expect(throws: StoreError.unusableLocation(path: file.path, reason: "it is not a directory")) {
                try FileSecureStore(directory: file)
            }
            let below = file.appendingPathComponent("inner", isDirectory: true)
            #expect {
                try FileSecureStore(directory: below)
            } throws: { error in
                guard case .unusableLocation(let path, let reason)? = error as? StoreError else { return false }
                return path == below.path && !reason.isEmpty
            }
        }
    }

    @Test("values round-trip, overwrite and are removed; removing a missing key is fine")
    func roundTripOverwriteRemove() throws {
        try withStorageScratch { scratch in
            let store = try FileSecureStore(directory: scratch.appendingPathComponent("s"))
            #expect(try store.data(forKey: "refresh_token") == nil)
            try store.set(Data("one".utf8), forKey: "refresh_token")
            #expect(try store.data(forKey: "refresh_token") == Data("one".utf8))
            try store.set(Data("two, longer".utf8), forKey: "refresh_token")
            #expect(try store.data(forKey: "refresh_token") == Data("two, longer".utf8))
            try store.set(Data(), forKey: "empty")
            #expect(try store.data(forKey: "empty") == Data())
            try store.removeValue(forKey: "refresh_token")
            #expect(try store.data(forKey: "refresh_token") == nil)
            try store.removeValue(forKey: "refresh_token")
            #expect(try store.keys() == ["empty"])
            // A second instance on the same directory sees what the first wrote.
            #expect(try FileSecureStore(directory: scratch.appendingPathComponent("s")).keys() == ["empty"])
        }
    }

    @Test("keys are sorted and dot-files (temporary files included) are not keys")
    func keysIgnoreDotFiles() throws {
        try withStorageScratch { scratch in
            let directory = scratch.appendingPathComponent("s")
            let store = try FileSecureStore(directory: directory)
            for key in ["profile", "expires_at", "access_token", "a.b-c_d"] { try store.set(Data(key.utf8), forKey: key) }
            try Data("x".utf8).write(to: directory.appendingPathComponent(AtomicFile.temporaryPrefix + "profile.1234"))
            try Data("x".utf8).write(to: directory.appendingPathComponent(".hidden"))
            #expect(try store.keys() == ["a.b-c_d", "access_token", "expires_at", "profile"])
            #expect(try store.removeAll() == ["a.b-c_d", "access_token", "expires_at", "profile"])
            #expect(try store.keys() == [])
        }
    }

    @Test("opening a store removes stale temporary files and leaves other files alone")
    func openingRemovesStaleTemporaryFiles() throws {
        try withStorageScratch { scratch in
            let directory = scratch.appendingPathComponent("s")
            try FileSecureStore(directory: directory).set(Data("kept".utf8), forKey: "record")
            let stale = AtomicFile.temporaryPrefix + "record.abcdef"
            try Data("torn".utf8).write(to: directory.appendingPathComponent(stale))
            try Data("x".utf8).write(to: directory.appendingPathComponent(".keep"))
            #expect(try storageEntries(of: directory) == [stale, ".keep", "record"].sorted())
            let reopened = try FileSecureStore(directory: directory)
            #expect(try storageEntries(of: directory) == [".keep", "record"])
            #expect(try reopened.data(forKey: "record") == Data("kept".utf8))
        }
    }

    @Test(
        "invalid keys are rejected by every operation",
        arguments: ["", ".hidden", ".", "..", "a/b", "../escape", "with space", "ünï", "a\nb", "tab\t",
                    String(repeating: "k", count: 201)])
    func invalidKeys(key: String) throws {
        try withStorageScratch { scratch in
            let store = try FileSecureStore(directory: scratch.appendingPathComponent("s"))
            #expect(throws: StoreError.invalidKey(key)) { try store.set(Data("v".utf8), forKey: key) }
            #expect(throws: StoreError.invalidKey(key)) { try store.data(forKey: key) }
            #expect(throws: StoreError.invalidKey(key)) { try store.removeValue(forKey: key) }
            #expect(try storageEntries(of: scratch.appendingPathComponent("s")) == [])
        }
    }

    @Test("valid edge-case keys are accepted", arguments: ["a", "A.b_c-9", "x.", String(repeating: "k", count: 200)])
    func validKeys(key: String) throws {
        try withStorageScratch { scratch in
            let store = try FileSecureStore(directory: scratch.appendingPathComponent("s"))
            try store.set(Data(key.utf8), forKey: key)
            #expect(try store.data(forKey: key) == Data(key.utf8))
            #expect(try store.keys() == [key])
        }
    }

    @Test("a directory where a value should be is unreadable, not a crash, and writes over it fail cleanly")
    func directoryInPlaceOfValue() throws {
        try withStorageScratch { scratch in
            let directory = scratch.appendingPathComponent("s")
            let store = try FileSecureStore(directory: directory)
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("id_token"), withIntermediateDirectories: false)
            #expect {
                try store.data(forKey: "id_token")
            } throws: { error in
                guard case .unreadable(let key, let reason)? = error as? StoreError else { return false }
                return key == "id_token" && !reason.isEmpty
            }
            let secret = "eyJ-secret-token-material"
            #expect {
                try store.set(Data(secret.utf8), forKey: "id_token")
            } throws: { error in
                guard case .writeFailed(let key, let reason)? = error as? StoreError else { return false }
                return key == "id_token" && !reason.isEmpty && !"\(error) \(error.localizedDescription)".contains(secret)
            }
            #expect(throws: StoreError.self) { try store.removeValue(forKey: "id_token") }
            // The failed write left no temporary file behind.
            #expect(try storageEntries(of: directory) == ["id_token"])
        }
    }

    @Test("concurrent writers to one key leave one complete value and no temporary files")
    func concurrentWrites() async throws {
        try await withStorageScratch { scratch in
            let directory = scratch.appendingPathComponent("s")
            let store = try FileSecureStore(directory: directory)
            let values = (0..<16).map { Data(String(repeating: "\($0 % 10)", count: 1000 + $0).utf8) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for value in values { group.addTask { try store.set(value, forKey: "record") } }
                try await group.waitForAll()
            }
            let stored = try #require(try store.data(forKey: "record"))
            #expect(values.contains(stored))
            #expect(try storageEntries(of: directory) == ["record"])
        }
    }

    @Test("AtomicFile writes with the requested mode and reads back; a missing file reads as nil")
    func atomicFileModes() throws {
        try withStorageScratch { scratch in
            let file = scratch.appendingPathComponent("world.json")
            #expect(try AtomicFile.contents(of: file.path) == nil)
            try AtomicFile.write(Data("{}".utf8), to: file.path, mode: 0o640)
            #expect(try storagePermissions(of: file) == 0o640)
            try AtomicFile.write(Data("{\"a\":1}".utf8), to: file.path, mode: 0o600)
            #expect(try storagePermissions(of: file) == 0o600)
            #expect(try AtomicFile.contents(of: file.path) == Data("{\"a\":1}".utf8))
            #expect(try storageEntries(of: scratch) == ["world.json"])
            #expect(throws: SystemCallError.self) {
                try AtomicFile.write(Data(), to: scratch.appendingPathComponent("missing/file").path, mode: 0o600)
            }
        }
    }
}
