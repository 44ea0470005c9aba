import Foundation
import RegStateSimulation

/// `regstate-sim --seed N --shrink`: shortens a failing run while it keeps failing the same invariant. First the
/// run is cut after the step of its first violation and halved while it still fails; then delta debugging (ddmin)
/// over the steps still performed finds a small set of actions that fails (a skipped step still draws its numbers,
/// so the others stay what they were); then each kind of fault is turned off in turn, kept off when the run still
/// fails. It prints the shortest failing replay command.
enum Shrinker {
    /// Runs at most this many candidates.
    static let budget = 400

    static func main(_ options: SimulationOptions) -> Int32 {
        let original = SimulationDriver.run(options).result
        guard let first = original.violations.first else {
            print("seed \(options.seed) passes: nothing to shrink")
            return 0
        }
        let target = String(first.prefix { $0 != ":" })
        var search = Search(target: target, best: options, result: original)
        search.shortenSteps()
        search.minimizeActions()
        search.turnFaultsOff()
        search.minimizeActions()
        let best = search.best
        let performed = (1...best.steps).filter { !best.skippedSteps.contains($0) }
        print("shrunk seed \(options.seed) (\(target)): steps \(options.steps) -> \(best.steps), actions "
              + "\(options.steps - options.skippedSteps.count) -> \(performed.count) (steps \(StepList.format(Set(performed)))), "
              + "faults off: \(best.disabledFaults.isEmpty ? "none" : best.disabledFaults.sorted().map(\.rawValue).joined(separator: ",")); "
              + "\(search.runs) runs")
        search.result.violations.forEach { print("  \($0)") }
        print("  replay: \(replayCommand(best))")
        return 1
    }

    /// The command that replays `options` with a full trace.
    static func replayCommand(_ options: SimulationOptions, last: String = "--trace") -> String {
        var words = ["swift run regstate-sim --seed \(options.seed) --steps \(options.steps) --processes \(options.processes)"]
        if options.storage != .files { words.append("--disk \(options.storage.rawValue)") }
        if let world = options.world { words.append("--world \(world.rawValue)") }
        if !options.skippedSteps.isEmpty { words.append("--skip \(StepList.format(options.skippedSteps))") }
        if !options.disabledFaults.isEmpty {
            words.append("--faults-off \(options.disabledFaults.sorted().map(\.rawValue).joined(separator: ","))")
        }
        if let injected = options.injectedFailure { words.append("--inject-failure \(injected.rawValue)") }
        words.append(last)
        return words.joined(separator: " ")
    }

    /// The search state: the smallest failing options so far.
    struct Search {
        let target: String
        var best: SimulationOptions
        var result: SimulationResult
        var runs = 1

        /// Whether `candidate` still fails `target` (and keeps it as the best when it does).
        mutating func keepIfFailing(_ candidate: SimulationOptions) -> Bool {
            guard runs < Shrinker.budget else { return false }
            runs += 1
            let outcome = SimulationDriver.run(candidate).result
            guard outcome.failedInvariants.contains(target) else { return false }
            best = candidate
            result = outcome
            return true
        }

        /// Cuts the run after its first violation, then halves it while it still fails.
        mutating func shortenSteps() {
            if let step = result.firstViolationStep, step >= 1, step < best.steps {
                _ = keepIfFailing(with(steps: step))
            }
            while best.steps > 1, keepIfFailing(with(steps: best.steps / 2)) {}
        }

        func with(steps: Int) -> SimulationOptions {
            var candidate = best
            candidate.steps = steps
            candidate.skippedSteps = candidate.skippedSteps.filter { $0 <= steps }
            return candidate
        }

        /// ddmin over the performed steps: keep a chunk alone, or drop it, while the run fails.
        mutating func minimizeActions() {
            var performed = (1...best.steps).filter { !best.skippedSteps.contains($0) }
            var chunks = 2
            func options(keeping kept: [Int]) -> SimulationOptions {
                var candidate = best
                candidate.skippedSteps = Set(1...candidate.steps).subtracting(kept)
                return candidate
            }
            if keepIfFailing(options(keeping: [])) { return }
            while performed.count >= 2, runs < Shrinker.budget {
                let size = Int((Double(performed.count) / Double(chunks)).rounded(.up))
                let parts = stride(from: 0, to: performed.count, by: size).map { Array(performed[$0..<min($0 + size, performed.count)]) }
                var reduced = false
                for part in parts where keepIfFailing(options(keeping: part)) {
                    performed = part
                    chunks = 2
                    reduced = true
                    break
                }
                if !reduced {
                    for part in parts {
                        let rest = performed.filter { !part.contains($0) }
                        if keepIfFailing(options(keeping: rest)) {
                            performed = rest
                            chunks = max(chunks - 1, 2)
                            reduced = true
                            break
                        }
                    }
                }
                if !reduced {
                    if chunks >= performed.count { break }
                    chunks = min(chunks * 2, performed.count)
                }
            }
            // Steps after the last one performed only cost time.
            if let last = performed.last, last < best.steps { _ = keepIfFailing(with(steps: last)) }
        }

        /// Turns each kind of fault off for the whole run, keeping it off when the run still fails.
        mutating func turnFaultsOff() {
            for fault in SimulationFault.allCases where !best.disabledFaults.contains(fault) {
                var candidate = best
                candidate.disabledFaults.insert(fault)
                _ = keepIfFailing(candidate)
            }
        }
    }
}

/// Step lists on the command line: `1-4,7,9-10`.
enum StepList {
    static func parse(_ text: String) -> Set<Int>? {
        var steps: Set<Int> = []
        for part in text.split(separator: ",") {
            let bounds = part.split(separator: "-").map { Int($0) }
            guard let low = bounds.first ?? nil, let high = bounds.last ?? nil, bounds.count <= 2, low >= 1, low <= high else {
                return nil
            }
            steps.formUnion(low...high)
        }
        return steps
    }

    static func format(_ steps: Set<Int>) -> String {
        var ranges: [String] = []
        var sorted = steps.sorted()[...]
        while let low = sorted.popFirst() {
            var high = low
            while sorted.first == high + 1 { high = sorted.removeFirst() }
            ranges.append(low == high ? "\(low)" : "\(low)-\(high)")
        }
        return ranges.isEmpty ? "none" : ranges.joined(separator: ",")
    }
}
