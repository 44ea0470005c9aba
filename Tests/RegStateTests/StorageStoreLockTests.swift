#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState
import RegStateTestSupport
import RegStateTesting
import Testing

/// The locks a store can be paired with, each taken through two handles as two processes would hold them.
enum StoreLockKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// One ``ProcessLocalLock`` shared by two tasks.
    case processLocal
    /// Two ``FileStoreLock`` instances on one file (two descriptors: `flock` excludes them as it excludes processes).
    case file
    /// Two ``FileSecureStore`` instances on one directory (their `.lock`).
    case fileStore
    /// Two App Group stores of RegStateTesting's ``KeychainDouble`` on one container.
    case keychainDouble

    var testDescription: String { rawValue }

    /// Two handles on one lock in `scratch`.
    func handles(in scratch: URL) throws -> (any StoreLock, any StoreLock) {
        switch self {
        case .processLocal:
            let lock = ProcessLocalLock()
            return (lock, lock)
        case .file:
            let url = scratch.appendingPathComponent(".lock")
            return (FileStoreLock(url: url), FileStoreLock(url: url))
        case .fileStore:
            let directory = scratch.appendingPathComponent("secure")
            return (StoreAsLock(store: try FileSecureStore(directory: directory)),
                    StoreAsLock(store: try FileSecureStore(directory: directory)))
        case .keychainDouble:
            return (StoreAsLock(store: try KeychainDouble.shared(in: scratch)),
                    StoreAsLock(store: try KeychainDouble.shared(in: scratch)))
        }
    }
}

/// A store's ``SecureStore/acquireExclusiveAccess(timeout:)`` as a ``StoreLock``.
private struct StoreAsLock: StoreLock {
    let store: any SecureStore
    func acquire(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        try await store.acquireExclusiveAccess(timeout: timeout)
    }
}

@Suite("Store locks")
struct StorageStoreLockTests {
    @Test("Given one holder, when another asks, then it is busy after its timeout, and gets the lock once released (twice is harmless)",
          arguments: StoreLockKind.allCases)
    func excludesUntilReleased(kind: StoreLockKind) async throws {
        try await withStorageScratch { scratch in
            let (first, second) = try kind.handles(in: scratch)
            let held = try await first.acquire(timeout: 1)
            await #expect(throws: StoreError.busy(waited: 0.05)) { try await second.acquire(timeout: 0.05) }
            held.release()
            held.release()
            let next = try await second.acquire(timeout: 1)
            await #expect(throws: StoreError.busy(waited: 0.05)) { try await first.acquire(timeout: 0.05) }
            next.release()
        }
    }

    @Test("FileSecureStore's lock is the FileStoreLock on its .lock file: one excludes the other (format unchanged)")
    func fileStoreUsesTheFileLock() async throws {
        try await withStorageScratch { scratch in
            let directory = scratch.appendingPathComponent("secure")
            let store = try FileSecureStore(directory: directory)
            let lock = FileStoreLock(url: directory.appendingPathComponent(FileSecureStore.lockFileName))
            let held = try await lock.acquire(timeout: 1)
            await #expect(throws: StoreError.busy(waited: 0.05)) { try await store.acquireExclusiveAccess(timeout: 0.05) }
            held.release()
            try await store.acquireExclusiveAccess(timeout: 1).release()
            #expect(try store.keys() == [])
        }
    }

    @Test("Given a child process holding the App Group lock, when it is killed, then the kernel releases the lock")
    func killedHolderReleasesTheLock() async throws {
        let probe = try #require(BuiltProducts.executable("RegStateCrashProbe"), "RegStateCrashProbe not built")
        try await withStorageScratch { scratch in
            let url = scratch.appendingPathComponent(".lock")
            let output = Pipe()
            let process = Process()
            process.executableURL = probe
            process.arguments = ["--hold-lock", url.path]
            process.standardOutput = output
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            let line = firstLine(of: output.fileHandleForReading, timeout: 60)
            try #require(line == "locked", "the probe did not take the lock: \(line ?? "nothing")")
            let lock = FileStoreLock(url: url)
            await #expect(throws: StoreError.busy(waited: 0.1)) { try await lock.acquire(timeout: 0.1) }
            kill(process.processIdentifier, SIGKILL)
            // A bound for a loaded machine, not an expected time: the kernel releases the lock as the process ends.
            let lease = try await lock.acquire(timeout: 60)
            lease.release()
        }
    }

    @Test("Given a locked device, every KeychainDouble call is interactionNotAllowed (recoverable) and nothing changes; unlocked, all is there")
    func lockedDevice() throws {
        try withStorageScratch { scratch in
            let items = try KeychainDouble(directory: scratch.appendingPathComponent("keychain"))
            let other = try KeychainDouble(directory: scratch.appendingPathComponent("keychain"))
            try items.set(Data("r1".utf8), forKey: "credentials")
            try items.setDeviceLocked(true)
            #expect(other.isDeviceLocked)
            let refused = StoreError.interactionNotAllowed(key: "credentials")
            #expect(refused.isRecoverable)
            #expect(throws: refused) { try other.data(forKey: "credentials") }
            #expect(throws: refused) { try other.set(Data("r2".utf8), forKey: "credentials") }
            #expect(throws: refused) { try other.removeValue(forKey: "credentials") }
            #expect(throws: StoreError.interactionNotAllowed(key: "")) { try other.keys() }
            try other.setDeviceLocked(false)
            #expect(try items.data(forKey: "credentials") == Data("r1".utf8))
            #expect(try items.keys() == ["credentials"])
        }
    }

    @Test("Only a busy lock, a locked device and a cancelled prompt are recoverable store errors")
    func recoverableErrors() {
        let recoverable: [StoreError] = [.busy(waited: 1), .interactionNotAllowed(key: "k"), .userCanceled(key: "k")]
        let final: [StoreError] = [.unreadable(key: "k", reason: "r"), .writeFailed(key: "k", reason: "r"),
                                   .unusableLocation(path: "/p", reason: "r"), .invalidKey("")]
        #expect(recoverable.filter(\.isRecoverable).count == recoverable.count)
        #expect(final.filter(\.isRecoverable).isEmpty)
        for error in recoverable + final { #expect(error.errorDescription?.isEmpty == false) }
    }
}

/// The first line written to `handle` (a pipe's reading end) within `timeout` seconds, without its newline.
private func firstLine(of handle: FileHandle, timeout: TimeInterval) -> String? {
    let descriptor = handle.fileDescriptor
    let deadline = Date().addingTimeInterval(timeout)
    var received: [UInt8] = []
    var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while Date() < deadline {
        guard poll(&pollDescriptor, 1, 100) > 0 else { continue }
        var byte: UInt8 = 0
        guard read(descriptor, &byte, 1) == 1 else { return nil }
        if byte == UInt8(ascii: "\n") { return String(decoding: received, as: UTF8.self) }
        received.append(byte)
    }
    return nil
}
