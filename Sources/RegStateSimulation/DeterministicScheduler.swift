import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs every task of the process on the calling thread, one job at a time, the next job chosen by a seeded
/// generator: the same seed gives the same interleaving, and different seeds explore different ones.
///
/// It installs the Swift runtime's global-enqueue hooks (`swift_task_enqueueGlobal_hook` and the delayed variants
/// behind `Task.sleep`), found with `dlsym`, as swift-async-algorithms' marble-diagram tests do. Default actors
/// schedule their work through the global executor, so actor hops land in the same queue. A sleeping job is held
/// until nothing else is ready (time jumps), in order of its delay. Jobs enqueued from another thread (a path that
/// escapes: Dispatch, a system callback) are still run here, but counted in ``Report/foreignEnqueues``; a run with
/// none is reproducible.
///
/// Only one scheduler may run at a time in a process, and while it runs every task of the process goes through it:
/// use it in a process of its own (`regstate-sim`), not inside a test runner.
public final class DeterministicScheduler: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`; jobs run only on the thread that called `run`.

    /// What a drain loop saw.
    public struct Report: Sendable, Equatable {
        /// Jobs run.
        public var jobs = 0
        /// Sleeping jobs released because nothing else was ready.
        public var timersFired = 0
        /// Jobs enqueued from a thread other than the scheduler's (each one a possible source of nondeterminism).
        public var foreignEnqueues = 0
        /// Whether the body finished; `false` means every task waits on something that will never come.
        public var finished = false
    }

    private struct Delayed {
        var due: UInt64
        var order: UInt64
        var job: UnsafeMutableRawPointer
    }

    private let lock = NSCondition()
    private var ready: [UnsafeMutableRawPointer] = []
    private var delayed: [Delayed] = []
    private var virtualNanoseconds: UInt64 = 0
    private var order: UInt64 = 0
    private var random: SeededRandom
    private var report = Report()
    private var owner: pthread_t?
    /// Called (without the lock) when no job is ready and no sleeper is held: a clock that owns waits ends one and
    /// answers `true` (its job is then ready), or answers `false` when none waits.
    private var idle: (@Sendable () -> Bool)?

    nonisolated(unsafe) private static var current: DeterministicScheduler?
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static var runJob: (@convention(c) (UnsafeMutableRawPointer, UInt, UInt) -> Void)?

    /// A scheduler whose choices come from `random`.
    public init(random: SeededRandom) { self.random = random }

    /// Sets what the scheduler asks when nothing is ready: a simulated clock ending its earliest wait.
    public func whenIdle(_ handler: @escaping @Sendable () -> Bool) { lock.withLock { idle = handler } }

    /// Whether the runtime exposes the hooks (they are looked up once).
    public static var isAvailable: Bool { installHooks() }

    /// Runs `body` and every task it starts until `body` returns or nothing can run any more.
    ///
    /// - Parameter maxIdleWait: real seconds to wait for a job from another thread when nothing is ready.
    public func run(maxIdleWait: TimeInterval = 0.2, _ body: @escaping @Sendable () async -> Void) -> Report {
        precondition(Self.installHooks(), "the runtime's enqueue hooks are not available")
        precondition(Self.current == nil, "one DeterministicScheduler at a time")
        let done = DoneFlag()
        lock.lock()
        owner = pthread_self()
        Self.current = self
        lock.unlock()
        Task.detached { await body(); done.set() }
        while true {
            lock.lock()
            if done.isSet && ready.isEmpty { lock.unlock(); break }
            var next: UnsafeMutableRawPointer?
            if !ready.isEmpty {
                next = ready.remove(at: random.below(ready.count))
            } else if let index = delayed.indices.min(by: { (delayed[$0].due, delayed[$0].order) < (delayed[$1].due, delayed[$1].order) }) {
                let timer = delayed.remove(at: index)
                virtualNanoseconds = max(virtualNanoseconds, timer.due)
                report.timersFired += 1
                next = timer.job
            } else if let idle {
                lock.unlock()
                if idle() { continue }
                lock.lock()
                if !ready.isEmpty {
                    lock.unlock()
                    continue
                }
            }
            if next == nil, ready.isEmpty, !done.isSet {
                // Nothing ready here: give a foreign thread a moment to hand back a job, then call it stuck.
                if !lock.wait(until: Date().addingTimeInterval(maxIdleWait)) && ready.isEmpty {
                    lock.unlock()
                    break
                }
            }
            lock.unlock()
            if let next {
                report.jobs += 1
                Self.runJob?(next, 0, 0)
            }
        }
        lock.lock()
        report.finished = done.isSet
        Self.current = nil
        owner = nil
        let result = report
        lock.unlock()
        return result
    }

    fileprivate func enqueue(_ job: UnsafeMutableRawPointer, delay: UInt64?) {
        lock.lock()
        if let owner, pthread_equal(owner, pthread_self()) == 0 {
            report.foreignEnqueues += 1
            if ProcessInfo.processInfo.environment["REGSTATE_SIM_DEBUG_FOREIGN"] != nil {
                Thread.callStackSymbols.prefix(14).forEach { FileHandle.standardError.write(Data("  \($0)\n".utf8)) }
            }
        }
        if let delay {
            order += 1
            delayed.append(Delayed(due: virtualNanoseconds &+ delay, order: order, job: job))
        } else {
            ready.append(job)
        }
        lock.signal()
        lock.unlock()
    }

    /// Gives the other ready jobs a turn. `Task.yield()` does not do it here: on Linux with Swift 6.3 it goes to
    /// Dispatch's timer queue without passing the enqueue hooks, so its continuation comes back from another
    /// thread (a path that escapes). This one resumes through a job the hook sees.
    public static func yield() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Task.detached { continuation.resume() }
        }
    }

    // MARK: The hooks

    private typealias Original = @convention(c) (UnsafeMutableRawPointer) -> Void
    private typealias EnqueueHook = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    private typealias DelayHook = @convention(c) (UInt64, UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    private typealias DeadlineHook = @convention(c) (Int64, Int64, Int64, Int64, Int32, UnsafeMutableRawPointer,
                                                      UnsafeRawPointer) -> Void

    private static let hookLock = NSLock()

    @discardableResult
    private static func installHooks() -> Bool {
        hookLock.lock()
        defer { hookLock.unlock() }
        if installed { return true }
        let handle = dlopen(nil, RTLD_NOW)
        guard let enqueue = dlsym(handle, "swift_task_enqueueGlobal_hook"),
              let withDelay = dlsym(handle, "swift_task_enqueueGlobalWithDelay_hook"),
              let withDeadline = dlsym(handle, "swift_task_enqueueGlobalWithDeadline_hook"),
              let run = dlsym(handle, "swift_job_run")
        else { return false }
        runJob = unsafeBitCast(run, to: (@convention(c) (UnsafeMutableRawPointer, UInt, UInt) -> Void).self)
        // The runtime calls the hooks with the Swift calling convention; for these all-scalar signatures it passes
        // the arguments in the same registers as C does (x86-64 and arm64).
        let enqueueHook: EnqueueHook = { job, original in
            if let scheduler = DeterministicScheduler.current {
                scheduler.enqueue(job, delay: nil)
            } else {
                unsafeBitCast(original, to: Original.self)(job)
            }
        }
        let delayHook: DelayHook = { delay, job, original in
            if let scheduler = DeterministicScheduler.current {
                scheduler.enqueue(job, delay: delay)
            } else {
                unsafeBitCast(original, to: (@convention(c) (UInt64, UnsafeMutableRawPointer) -> Void).self)(delay, job)
            }
        }
        let deadlineHook: DeadlineHook = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
            if let scheduler = DeterministicScheduler.current {
                // The deadline is on a real clock; only the order of sleepers matters here, so sleeps of any
                // length are held until nothing else is ready and released in the order they began.
                scheduler.enqueue(job, delay: 1)
            } else {
                unsafeBitCast(original, to: (@convention(c) (Int64, Int64, Int64, Int64, Int32, UnsafeMutableRawPointer) -> Void).self)(
                    seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
            }
        }
        enqueue.assumingMemoryBound(to: EnqueueHook?.self).pointee = enqueueHook
        withDelay.assumingMemoryBound(to: DelayHook?.self).pointee = delayHook
        withDeadline.assumingMemoryBound(to: DeadlineHook?.self).pointee = deadlineHook
        installed = true
        return true
    }
}

/// A flag set once by the body's task and read by the drain loop.
private final class DoneFlag: @unchecked Sendable {
    // @unchecked: the value is guarded by `lock`.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
