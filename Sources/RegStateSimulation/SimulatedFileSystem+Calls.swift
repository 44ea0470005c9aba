#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState

/// One process's system calls on a ``SimulatedFileSystem``: what its ``FileSecureStore`` and ``FileJournal`` run on.
package struct SimulatedFileSystemCalls: StorageFileSystem {
    let fileSystem: SimulatedFileSystem
    let incarnation: Int

    package func open(_ path: String, _ flags: Int32, mode: mode_t) throws(SystemCallError) -> Int32 {
        try fileSystem.perform(incarnation, "open") { _ throws(SystemCallError) in
            let fs = fileSystem
            let access = flags & O_ACCMODE
            let id: Int
            if let existing = fs.names[path], let node = fs.nodes[existing] {
                if flags & O_CREAT != 0, flags & O_EXCL != 0 { throw SystemCallError("open", code: EEXIST) }
                if flags & O_DIRECTORY != 0, !node.isDirectory { throw SystemCallError("open", code: ENOTDIR) }
                if node.isDirectory, access != O_RDONLY { throw SystemCallError("open", code: EISDIR) }
                id = existing
                if flags & O_TRUNC != 0, access != O_RDONLY, !node.data.isEmpty { fs.change(id, .truncate(0)) }
            } else {
                guard flags & O_CREAT != 0 else { throw SystemCallError("open", code: ENOENT) }
                guard let parent = fs.names[SimulatedFileSystem.parent(path)], fs.nodes[parent]?.isDirectory == true else {
                    throw SystemCallError("open", code: ENOENT)
                }
                id = fs.nextNode
                fs.nextNode += 1
                fs.nodes[id] = SimulatedFileSystem.Node(isDirectory: false, mode: mode & 0o7777)
                fs.changeName(.link(path, id), in: path)
            }
            let fd = fs.nextDescriptor
            fs.nextDescriptor += 1
            fs.open[fd] = SimulatedFileSystem.OpenFile(
                node: id, path: path, incarnation: incarnation, append: flags & O_APPEND != 0,
                canRead: access != O_WRONLY, canWrite: access != O_RDONLY)
            return fd
        }
    }

    package func close(_ fd: Int32) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "close") { _ throws(SystemCallError) in
            let fs = fileSystem
            let file = try fs.file(fd, incarnation, "close")
            if fs.locks[file.node] == fd { fs.locks[file.node] = nil }
            fs.open[fd] = nil
        }
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        fileSystem.armSharedAppendCrash(fd)
        return try fileSystem.perform(incarnation, "write") { crash throws(SystemCallError) in
            let fs = fileSystem
            var file = try fs.file(fd, incarnation, "write")
            guard file.canWrite else { throw SystemCallError("write", code: EBADF) }
            if let code = fs.fault(file.path, "write", percent: fs.failPercent, code: fs.random.chance(67) ? ENOSPC : EIO) {
                throw SystemCallError("write", code: code)
            }
            var count = bytes.count
            if crash != nil {
                count = fs.random.below(count + 1)  // The process dies with part of the write done.
            } else if count > 1, fs.random.chance(10) {
                count = 1 + fs.random.below(count - 1)  // A short write, as POSIX allows.
            }
            let offset = file.append ? (fs.nodes[file.node]?.data.count ?? 0) : file.offset
            fs.change(file.node, .write(offset: offset, bytes: Array(bytes.prefix(count))))
            file.offset = offset + count
            fs.open[fd] = file
            return count
        }
    }

    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try fileSystem.perform(incarnation, "read") { _ throws(SystemCallError) in
            let fs = fileSystem
            var file = try fs.file(fd, incarnation, "read")
            let count = try Self.copy(fs, file, into: buffer, at: file.offset)
            file.offset += count
            fs.open[fd] = file
            return count
        }
    }

    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemCallError) -> Int {
        try fileSystem.perform(incarnation, "pread") { _ throws(SystemCallError) in
            try Self.copy(fileSystem, try fileSystem.file(fd, incarnation, "pread"), into: buffer, at: offset)
        }
    }

    /// Caller holds the lock.
    private static func copy(_ fs: SimulatedFileSystem, _ file: SimulatedFileSystem.OpenFile,
                             into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemCallError) -> Int {
        guard file.canRead, let node = fs.nodes[file.node] else { throw SystemCallError("read", code: EBADF) }
        if node.isDirectory { throw SystemCallError("read", code: EISDIR) }
        guard offset < node.data.count else { return 0 }
        let count = min(buffer.count, node.data.count - offset)
        node.data.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
        }
        return count
    }

    package func seek(_ fd: Int32, to offset: Int) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "lseek") { _ throws(SystemCallError) in
            var file = try fileSystem.file(fd, incarnation, "lseek")
            file.offset = offset
            fileSystem.open[fd] = file
        }
    }

    package func sync(_ fd: Int32) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "fsync") { _ throws(SystemCallError) in
            let fs = fileSystem
            let file = try fs.file(fd, incarnation, "fsync")
            guard var node = fs.nodes[file.node] else { throw SystemCallError("fsync", code: EBADF) }
            if node.isDirectory {
                // The directory's pending name changes become durable, in order.
                var rest: [(directory: String, change: SimulatedFileSystem.NameChange)] = []
                for entry in fs.pendingNames {
                    if entry.directory == file.path {
                        SimulatedFileSystem.apply(entry.change, to: &fs.durableNames)
                    } else {
                        rest.append(entry)
                    }
                }
                fs.pendingNames = rest
                return
            }
            if let code = fs.fault(file.path, "fsync", percent: fs.failPercent / 4, code: EIO) {
                throw SystemCallError("fsync", code: code)
            }
            node.durable = node.data
            node.pending = []
            fs.nodes[file.node] = node
        }
    }

    package func truncate(_ fd: Int32, to length: Int) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "ftruncate") { _ throws(SystemCallError) in
            let file = try fileSystem.file(fd, incarnation, "ftruncate")
            guard file.canWrite else { throw SystemCallError("ftruncate", code: EBADF) }
            fileSystem.change(file.node, .truncate(length))
        }
    }

    package func status(_ path: String) throws(SystemCallError) -> stat? {
        try fileSystem.perform(incarnation, "stat") { _ throws(SystemCallError) in fileSystem.names[path].map { fileSystem.fileStatus(of: $0) } }
    }

    package func status(_ fd: Int32) throws(SystemCallError) -> stat {
        try fileSystem.perform(incarnation, "fstat") { _ throws(SystemCallError) in fileSystem.fileStatus(of: try fileSystem.file(fd, incarnation, "fstat").node) }
    }

    package func changeMode(_ path: String, _ mode: mode_t) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "chmod") { _ throws(SystemCallError) in
            guard let id = fileSystem.names[path] else { throw SystemCallError("chmod", code: ENOENT) }
            fileSystem.nodes[id]?.mode = mode & 0o7777
        }
    }

    package func changeMode(_ fd: Int32, _ mode: mode_t) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "fchmod") { _ throws(SystemCallError) in
            fileSystem.nodes[try fileSystem.file(fd, incarnation, "fchmod").node]?.mode = mode & 0o7777
        }
    }

    package func makeDirectory(_ path: String, _ mode: mode_t) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "mkdir") { _ throws(SystemCallError) in
            let fs = fileSystem
            if fs.names[path] != nil { throw SystemCallError("mkdir", code: EEXIST) }
            guard let parent = fs.names[SimulatedFileSystem.parent(path)], fs.nodes[parent]?.isDirectory == true else {
                throw SystemCallError("mkdir", code: ENOENT)
            }
            let id = fs.nextNode
            fs.nextNode += 1
            fs.nodes[id] = SimulatedFileSystem.Node(isDirectory: true, mode: mode & 0o7777)
            fs.changeName(.link(path, id), in: path)
        }
    }

    package func rename(_ from: String, to: String) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "rename") { _ throws(SystemCallError) in
            let fs = fileSystem
            guard let id = fs.names[from] else { throw SystemCallError("rename", code: ENOENT) }
            if let target = fs.names[to], fs.nodes[target]?.isDirectory == true, fs.nodes[id]?.isDirectory == false {
                throw SystemCallError("rename", code: EISDIR)
            }
            fs.changeName(.rename(from, to), in: to)
        }
    }

    package func unlink(_ path: String) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "unlink") { _ throws(SystemCallError) in
            let fs = fileSystem
            guard let id = fs.names[path] else { return }
            if fs.nodes[id]?.isDirectory == true { throw SystemCallError("unlink", code: EISDIR) }
            fs.changeName(.unlink(path), in: path)
        }
    }

    package func directoryEntries(_ path: String) throws(SystemCallError) -> [String] {
        try fileSystem.perform(incarnation, "readdir") { _ throws(SystemCallError) in
            let fs = fileSystem
            guard let id = fs.names[path] else { throw SystemCallError("opendir", code: ENOENT) }
            guard fs.nodes[id]?.isDirectory == true else { throw SystemCallError("opendir", code: ENOTDIR) }
            let prefix = path == "/" ? "/" : path + "/"
            return fs.names.keys.filter { $0.hasPrefix(prefix) && $0 != path && !$0.dropFirst(prefix.count).contains("/") }
                .map { String($0.dropFirst(prefix.count)) }.sorted()
        }
    }

    package func access(_ path: String, _ mode: Int32) throws(SystemCallError) {
        try fileSystem.perform(incarnation, "access") { _ throws(SystemCallError) in
            if fileSystem.names[path] == nil { throw SystemCallError("access", code: ENOENT) }
        }
    }

    package func lockExclusive(_ fd: Int32, wait: Bool) throws(SystemCallError) -> Bool {
        try fileSystem.perform(incarnation, "flock") { _ throws(SystemCallError) in
            let fs = fileSystem
            let file = try fs.file(fd, incarnation, "flock")
            if let holder = fs.locks[file.node], holder != fd {
                // A blocking wait cannot happen on the simulation's one thread: it is reported, not waited for.
                if wait { throw SystemCallError("flock", code: EDEADLK) }
                return false
            }
            fs.locks[file.node] = fd
            return true
        }
    }

    package func unlock(_ fd: Int32) {
        _ = try? fileSystem.perform(incarnation, "flock") { _ throws(SystemCallError) in
            let file = try fileSystem.file(fd, incarnation, "flock")
            if fileSystem.locks[file.node] == fd { fileSystem.locks[file.node] = nil }
        }
    }

    package func effectiveUserID() -> uid_t { SimulatedFileSystem.user }

    package func temporarySuffix() -> UInt64 { fileSystem.lock.withLock { fileSystem.random.next() } }

    /// The lock waits' clock: the seconds the waits paused (monotonic: the world's clock jumps do not count).
    package func now() -> TimeInterval { fileSystem.lock.withLock { fileSystem.lockClock } }

    /// In the launch-budget world an async wait for a lock sleeps on the run's virtual clock, so a lock held across
    /// a stalled answer is waited for in the same time as the stall, and whichever deadline comes first ends first.
    package func pause(nanoseconds: UInt64) async {
        if let clock = fileSystem.virtualClock {
            await clock.sleep(for: Double(nanoseconds) / 1e9)
            fileSystem.lock.withLock { fileSystem.lockClock += Double(nanoseconds) / 1e9 }
            return
        }
        fileSystem.lock.withLock { fileSystem.lockClock += Double(nanoseconds) / 1e9 }
        await DeterministicScheduler.yield()
    }

    package func pauseBlocking(microseconds: UInt32) {
        fileSystem.lock.withLock { fileSystem.lockClock += Double(microseconds) / 1e6 }
    }
}
