import Foundation

/// Runs one ``SimulationRun`` under the ``DeterministicScheduler``: the run's seed also picks which ready job runs
/// next. A run whose tasks all wait forever is reported as a `bounded-wait` violation naming the calls still open.
public enum SimulationDriver {
    /// The result of one run and what its scheduler saw.
    public struct Outcome: Sendable {
        /// The invariants' verdict and the trace.
        public var result: SimulationResult
        /// Jobs run, timers fired, enqueues from other threads.
        public var scheduler: DeterministicScheduler.Report
    }

    /// Runs the seed of `options` to its end (or until nothing can run).
    public static func run(_ options: SimulationOptions) -> Outcome {
        var random = SeededRandom(seed: options.seed ^ 0x5C4E_D01E)
        let scheduler = DeterministicScheduler(random: random.split())
        let box = ResultBox()
        let report = scheduler.run {
            do {
                let run = try SimulationRun(options: options)
                if let clock = run.waitClock { scheduler.whenIdle { clock.wakeNext() } }
                box.set(run: run)
                box.set(result: await run.run())
            } catch {
                box.set(result: SimulationResult(seed: options.seed, violations: ["setup: \(error)"], trace: [],
                                                 virtualSeconds: 0, refreshGrants: 0))
            }
        }
        var result = box.result ?? SimulationResult(seed: options.seed, violations: [], trace: [], virtualSeconds: 0, refreshGrants: 0)
        if !report.finished {
            let open = box.run.map { $0.pendingCalls.open } ?? []
            result.trace += box.run.map { $0.ledger.trace } ?? []
            result.violations += box.run.map { $0.ledger.violations } ?? []
            result.violations.append("bounded-wait: the run stopped with every task waiting; open calls: \(open.joined(separator: ", "))")
        }
        return Outcome(result: result, scheduler: report)
    }
}

/// Carries the run and its result out of the scheduler's body.
private final class ResultBox: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var storedResult: SimulationResult?
    private var storedRun: SimulationRun?
    func set(result: SimulationResult) { lock.withLock { storedResult = result } }
    func set(run: SimulationRun) { lock.withLock { storedRun = run } }
    var result: SimulationResult? { lock.withLock { storedResult } }
    var run: SimulationRun? { lock.withLock { storedRun } }
}
