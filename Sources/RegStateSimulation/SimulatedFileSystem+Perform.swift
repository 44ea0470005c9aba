#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState

extension SimulatedFileSystem {
    /// Runs one system call of `incarnation` under the lock: counts it, and when it is the armed crash point, lets
    /// its effect happen or not (`body` sees the crash point: a write keeps a prefix), then kills the process (or every
    /// process, on a power loss) and fails the call.
    func perform<T>(_ incarnation: Int, _ name: String, _ body: (CrashPoint?) throws -> T) throws -> T {
        lock.lock()
        let crash: CrashPoint?
        do {
            crash = try begin(incarnation, name)
        } catch {
            lock.unlock()
            throw error
        }
        var result: Result<T, any Error>
        if let crash, !crash.applied {
            result = .failure(SystemCallError(name, code: EIO))
        } else {
            result = Result { try body(crash) }
        }
        var killed: [Int] = []
        if let crash {
            if crash.powerLoss {
                killed = powerLossLocked()
            } else {
                killLocked(incarnation)
                killed = [incarnation]
            }
            result = .failure(SystemCallError(name, code: EIO))
        }
        let notes = pendingNotes
        pendingNotes = []
        let count = calls
        lock.unlock()
        for note in notes {
            ledger.note(note)
            ledger.diskMishap()
        }
        if let crash {
            let when = crash.applied ? "after it took effect" : "before it took effect"
            let what = crash.powerLoss ? "POWER LOSS" : "p\(incarnation) CRASH"
            afterCrash(killed: killed, note: "fs    \(what) at system call #\(count) (\(name), \(when))",
                       powerLoss: crash.powerLoss)
        } else {
            reportCredentials(by: incarnation)
        }
        return try result.get()
    }

    /// Caller holds `lock`. The open file behind `fd` for `incarnation`.
    func file(_ fd: Int32, _ incarnation: Int, _ name: String) throws -> OpenFile {
        guard let file = open[fd], file.incarnation == incarnation else { throw SystemCallError(name, code: EBADF) }
        return file
    }

    /// Caller holds `lock`. Whether an injected fault hits this call on `path` (store files only); traces it.
    func fault(_ path: String, _ name: String, percent: Int, code: Int32) -> Int32? {
        guard path.hasPrefix(storeDirectory + "/"), random.chance(percent) else { return nil }
        let short = path.split(separator: "/").last.map { $0.hasPrefix(AtomicFile.temporaryPrefix) ? "(temporary file)" : String($0) } ?? path
        pendingNotes.append("fs    \(name) \(short) failed: \(code == ENOSPC ? "ENOSPC (disk full)" : "EIO")")
        return code
    }

    /// Caller holds `lock`.
    func fileStatus(of id: Int) -> stat {
        var info = stat()
        guard let node = nodes[id] else { return info }
        info.st_dev = 1
        info.st_ino = ino_t(id)
        info.st_mode = (node.isDirectory ? S_IFDIR : S_IFREG) | node.mode
        info.st_uid = Self.user
        info.st_nlink = 1
        info.st_size = off_t(node.data.count)
        return info
    }

    static func parent(_ path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "/" : parent
    }

    /// Caller holds `lock`. Records a name change in `path`'s directory.
    func changeName(_ change: NameChange, in path: String) {
        Self.apply(change, to: &names)
        pendingNames.append((Self.parent(path), change))
    }

    /// Caller holds `lock`. Changes a file's bytes (not yet durable).
    func change(_ id: Int, _ change: FileChange) {
        // Taken out of the dictionary first, so its bytes are not shared and change in place (no copy per write).
        guard var node = nodes.removeValue(forKey: id) else { return }
        Self.apply(change, to: &node.data)
        node.pending.append(change)
        nodes[id] = node
    }
}
