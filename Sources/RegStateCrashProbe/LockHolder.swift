import Foundation
import RegState

/// Takes the App Group lock (a ``FileStoreLock`` on the file at `path`), prints "locked" and holds it until the
/// process is killed: the child process of the test that the kernel releases a dead holder's lock.
func runLockHolder(path: String) -> Never {
    let lock = FileStoreLock(url: URL(fileURLWithPath: path))
    Task {
        do {
            // Never released: the lease's descriptor stays open (and the lock held) until the process dies.
            _ = try await lock.acquire(timeout: 60)
            FileHandle.standardOutput.write(Data("locked\n".utf8))
        } catch {
            fail(error.localizedDescription)
        }
    }
    while true { sleep(3600) }
}
