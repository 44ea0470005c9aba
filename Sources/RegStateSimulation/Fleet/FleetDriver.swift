import Foundation
import RegState

/// Runs one ``FleetRun`` on the ``DeterministicScheduler`` (one seed, one replay), and measures the CPU time it took.
public enum FleetDriver {
    /// The report of a run and the CPU seconds (user + system) it took.
    public struct Outcome: Sendable {
        /// What the provider saw, and the checks.
        public var report: FleetReport?
        /// CPU seconds the run took.
        public var cpuSeconds: Double
        /// Whether every task ran to its end.
        public var finished: Bool
    }

    /// Runs `options` to its end.
    public static func run(_ options: FleetOptions) -> Outcome {
        let before = cpuSeconds()
        var random = SeededRandom(seed: options.seed ^ 0x5C4E_D01E)
        let scheduler = DeterministicScheduler(random: random.split())
        let box = LockedValue<FleetReport?>(nil)
        let report = scheduler.run {
            let report = await FleetRun(options: options).run()
            box.withLock { $0 = report }
        }
        return Outcome(report: box.withLock { $0 }, cpuSeconds: cpuSeconds() - before, finished: report.finished)
    }

    /// The process's CPU time so far (user + system), seconds.
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
