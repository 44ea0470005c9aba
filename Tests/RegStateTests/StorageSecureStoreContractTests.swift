import Foundation
import RegState
import RegStateTesting
import Testing

/// The store implementations, so the shared contract is checked against each: `standard` is the one
/// `RegStateDependencies.standard(at:keychainService:)` picks (the Keychain store on Apple platforms, the file store
/// on Linux, where the Keychain store is not compiled); `keychainDouble` is RegStateTesting's Keychain-like double
/// paired with the App Group lock, as `RegStateDependencies.sharedSession` pairs the real Keychain on Apple platforms.
enum StorageStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case file, memory, standard, keychainDouble

    var testDescription: String { rawValue }

    /// The kinds that can run in this process. On Apple platforms `standard` is the data-protection Keychain, which
    /// refuses an unsigned test bundle (errSecMissingEntitlement): it runs from a signed test host only, which says
    /// so with `REGSTATE_SIGNED_TEST_HOST=1` (.github/workflows/apple.yml). On Linux every kind runs.
    static var runnable: [StorageStoreKind] {
        #if canImport(Security)
        if ProcessInfo.processInfo.environment["REGSTATE_SIGNED_TEST_HOST"] != "1" { return allCases.filter { $0 != .standard } }
        #endif
        return allCases
    }

    /// Runs `body` with a fresh, empty store of this kind.
    func withStore(_ body: (any SecureStore) throws -> Void) throws {
        switch self {
        case .memory: try body(InMemorySecureStore())
        case .keychainDouble: try withStorageScratch { try body(try KeychainDouble.shared(in: $0)) }
        case .file: try withStorageScratch { try body(try FileSecureStore(directory: $0.appendingPathComponent("s"))) }
        case .standard:
            try withStorageScratch { directory in
                let store = try RegStateDependencies.standard(at: directory, keychainService: "regstate.tests.\(UUID())").store
                #if !canImport(Security)
                #expect(store is FileSecureStore)
                #endif
                try body(store)
                _ = try? store.removeAll()
            }
        }
    }
}

@Suite("SecureStore contract")
struct StorageSecureStoreContractTests {
    @Test("set, overwrite, read, remove, list", arguments: StorageStoreKind.runnable)
    func lifecycle(kind: StorageStoreKind) throws {
        try kind.withStore { store in
            #expect(try store.keys() == [])
            #expect(try store.data(forKey: "profile") == nil)
            try store.set(Data("p1".utf8), forKey: "profile")
            try store.set(Data("t".utf8), forKey: "access_token")
            try store.set(Data("p2".utf8), forKey: "profile")
            #expect(try store.data(forKey: "profile") == Data("p2".utf8))
            #expect(try store.keys() == ["access_token", "profile"])
            try store.removeValue(forKey: "profile")
            try store.removeValue(forKey: "never_set")
            #expect(try store.data(forKey: "profile") == nil)
            #expect(try store.removeAll() == ["access_token"])
            #expect(try store.keys() == [])
        }
    }

    @Test("keys are validated the same way", arguments: StorageStoreKind.runnable)
    func keyRules(kind: StorageStoreKind) throws {
        try kind.withStore { store in
            for key in ["", ".tmp", "a/b", "a b"] {
                #expect(throws: StoreError.invalidKey(key)) { try store.set(Data(), forKey: key) }
                #expect(throws: StoreError.invalidKey(key)) { try store.data(forKey: key) }
            }
            try store.set(Data(), forKey: "registration_type")
            #expect(try store.keys() == ["registration_type"])
        }
    }
}

@Suite("InMemorySecureStore")
struct StorageInMemorySecureStoreTests {
    @Test("initial values are readable")
    func initialValues() throws {
        let store = InMemorySecureStore(["b": Data("2".utf8), "a": Data("1".utf8)])
        #expect(try store.keys() == ["a", "b"])
        #expect(try store.data(forKey: "b") == Data("2".utf8))
    }

    @Test("an armed write failure fails exactly one write and changes nothing")
    func failNextWrite() throws {
        let store = InMemorySecureStore(["refresh_token": Data("old".utf8)])
        let failure = StoreError.writeFailed(key: "refresh_token", reason: "disk full")
        store.failNextWrite(failure)
        #expect(throws: failure) { try store.set(Data("new".utf8), forKey: "refresh_token") }
        #expect(try store.data(forKey: "refresh_token") == Data("old".utf8))
        try store.set(Data("new".utf8), forKey: "refresh_token")
        #expect(try store.data(forKey: "refresh_token") == Data("new".utf8))

        store.failNextWrite(failure)
        #expect(throws: failure) { try store.removeValue(forKey: "refresh_token") }
        #expect(try store.keys() == ["refresh_token"])
    }

    @Test("an armed read failure fails exactly one read")
    func failNextRead() throws {
        let store = InMemorySecureStore(["profile": Data("p".utf8)])
        let failure = StoreError.unreadable(key: "profile", reason: "locked")
        store.failNextRead(failure)
        #expect(throws: failure) { try store.data(forKey: "profile") }
        #expect(try store.data(forKey: "profile") == Data("p".utf8))
    }

    @Test("error messages are sentences that name the key or path and the reason")
    func errorMessages() {
        let cases: [(StoreError, [String])] = [
            (.unreadable(key: "id_token", reason: "Is a directory (read)"), ["id_token", "Is a directory"]),
            (.writeFailed(key: "id_token", reason: "No space left on device (write)"), ["id_token", "No space left"]),
            (.unusableLocation(path: "/x/store", reason: "it is not a directory"), ["/x/store", "not a directory"]),
            (.invalidKey("a/b"), ["a/b"]),
        ]
        for (error, parts) in cases {
            let message = error.localizedDescription
            #expect(message.hasSuffix("."))
            for part in parts { #expect(message.contains(part)) }
        }
    }
}
