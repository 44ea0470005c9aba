import Dispatch
import Foundation
import RegState

/// Runs the command's jobs — its task's, the engine actors' it calls into, the event printer's — one after another on
/// the process's main thread, which does nothing else (``run(_:)``). A short command then hands no work from thread to
/// thread (each hand-off a wake-up, and on a loaded machine a wait for a CPU) and starts no thread of its own (each
/// one a stack and a malloc arena); work the engine starts in tasks of its own (a renewal racing the launch budget, a
/// timer) still runs on the shared pool and comes back here.
///
/// Only the `regstate` process uses it (tests run commands in-process). Task executors exist from macOS 15 / iOS 18;
/// before, the command runs on the shared pool as it did.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class MainThreadExecutor: TaskExecutor {
    private let jobs = LockedValue<[UnownedJob]>([])
    private let queued = DispatchSemaphore(value: 0)

    /// The executor the command's tasks prefer; `nil` (no preference) unless the process set one up.
    static var preferred: MainThreadExecutor? { CommandExecutor.preferred as? MainThreadExecutor }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        queued.signal()
    }

    /// Starts `command` in a task that prefers this executor, then runs jobs on the calling (main) thread until the
    /// command ends the process with its exit status.
    ///
    /// The process ends with `_exit`, not `exit`: nothing is left to do at exit (the terminal's text went out with
    /// `write(2)`, the journal and the store are synced when they are written, the kernel releases the store's lock),
    /// while `exit` would first run every loaded library's destructors (Foundation, libcurl, libcrypto, …), which
    /// touch about half a MiB of pages no command needs: a `status`'s peak memory. C streams are flushed first, in
    /// case a library wrote to one.
    func run(_ command: @escaping @Sendable () async -> Int32) -> Never {
        Task(executorPreference: self) {
            let status = await command()
            fflush(nil)
            _exit(status)
        }
        let executor = asUnownedTaskExecutor()
        while true {
            queued.wait()
            jobs.withLock { $0.removeFirst() }.runSynchronously(on: executor)
        }
    }
}

/// Where the process keeps its ``MainThreadExecutor`` (typed loosely: the class needs a newer OS than the package).
enum CommandExecutor {
    /// Set once by `main.swift` before the command starts; read afterwards only.
    nonisolated(unsafe) static var preferred: AnyObject?
}
