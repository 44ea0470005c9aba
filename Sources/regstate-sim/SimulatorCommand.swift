import Foundation
import RegStateSimulation

/// The command line of `regstate-sim`.
enum SimulatorCommand {
    struct Options {
        var seeds: ClosedRange<UInt64>?
        var timeBox: Double?
        var start: UInt64?
        var steps = 40
        var processes = 2
        var storage = SimulatedStorageKind.files
        var trace = false
        var quiet = false
        var shrink = false
        var world: SimulationWorld?
        var skipped: Set<Int> = []
        var faultsOff: Set<SimulationFault> = []
        var inject: InjectedFailure?
    }

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--seed":
                guard let value = rest.popFirst().flatMap(UInt64.init) else { return nil }
                options.seeds = value...value
            case "--seeds":
                guard let text = rest.popFirst() else { return nil }
                let parts = text.components(separatedBy: "..")
                guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low <= high else { return nil }
                options.seeds = low...high
            case "--time-box":
                guard let value = rest.popFirst().flatMap(Double.init) else { return nil }
                options.timeBox = value
            case "--start":
                guard let value = rest.popFirst().flatMap(UInt64.init) else { return nil }
                options.start = value
            case "--steps":
                guard let value = rest.popFirst().flatMap(Int.init), value > 0 else { return nil }
                options.steps = value
            case "--processes":
                guard let value = rest.popFirst().flatMap(Int.init), (1...4).contains(value) else { return nil }
                options.processes = value
            case "--world":
                guard let value = rest.popFirst().flatMap(SimulationWorld.init(rawValue:)) else { return nil }
                options.world = value
            case "--skip":
                guard let value = rest.popFirst().flatMap(StepList.parse) else { return nil }
                options.skipped = value
            case "--faults-off":
                guard let text = rest.popFirst() else { return nil }
                let faults = text.split(separator: ",").map { SimulationFault(rawValue: String($0)) }
                guard !faults.contains(nil) else { return nil }
                options.faultsOff = Set(faults.compactMap { $0 })
            case "--inject-failure":
                guard let value = rest.popFirst().flatMap(InjectedFailure.init(rawValue:)) else { return nil }
                options.inject = value
            case "--shrink": options.shrink = true
            case "--disk":
                guard let value = rest.popFirst().flatMap(SimulatedStorageKind.init(rawValue:)) else { return nil }
                options.storage = value
            case "--trace": options.trace = true
            case "--quiet": options.quiet = true
            default: return nil
            }
        }
        if options.seeds == nil, options.timeBox == nil { return nil }
        if options.shrink, options.seeds?.count != 1 { return nil }
        return options
    }

    static func main(_ arguments: [String]) -> Int32 {
        if let world = arguments.firstIndex(of: "--world"), arguments.indices.contains(world + 1),
           arguments[world + 1] == "fleet" {
            return FleetCommand.main(arguments)
        }
        guard let options = parse(arguments) else {
            FileHandle.standardError.write(Data("usage: regstate-sim (--seed N | --seeds A..B | --time-box SECONDS [--start N]) [--steps K] [--processes P] [--world plain|dpop|host|par|budget|rejecting|forged|memory|shared-journal|another-client|refreshed-id|together] [--skip STEPS] [--faults-off KINDS] [--disk files|model|keychain] [--trace] [--quiet]\n       regstate-sim --seed N --shrink [...]   shortens a failing run and prints the shortest failing replay\n".utf8))
            return 64
        }
        if options.shrink, let seed = options.seeds?.lowerBound {
            return Shrinker.main(simulationOptions(options, seed: seed))
        }
        let began = Date()
        var runs = 0, failures = 0, virtualSeconds = 0.0, foreign = 0
        var seed = options.seeds?.lowerBound ?? options.start ?? UInt64(began.timeIntervalSince1970 * 1000) % 1_000_000_000
        while true {
            if let seeds = options.seeds, seed > seeds.upperBound { break }
            if options.seeds == nil, let box = options.timeBox, Date().timeIntervalSince(began) >= box { break }
            let outcome = SimulationDriver.run(simulationOptions(options, seed: seed))
            runs += 1
            virtualSeconds += outcome.result.virtualSeconds
            foreign += outcome.scheduler.foreignEnqueues
            if options.trace { outcome.result.trace.forEach { print($0) } }
            if outcome.result.passed {
                if !options.quiet { print("seed \(seed) ok digest \(outcome.result.digest) grants \(outcome.result.refreshGrants) jobs \(outcome.scheduler.jobs) foreign \(outcome.scheduler.foreignEnqueues)") }
            } else {
                failures += 1
                print("seed \(seed) FAILED digest \(outcome.result.digest)")
                outcome.result.violations.forEach { print("  \($0)") }
                print("  replay: \(Shrinker.replayCommand(simulationOptions(options, seed: seed)))")
                print("  shrink: \(Shrinker.replayCommand(simulationOptions(options, seed: seed), last: "--shrink"))")
            }
            seed += 1
        }
        let wall = Date().timeIntervalSince(began)
        print(String(format: "runs %d failures %d virtual-hours %.1f wall %.1fs runs/s %.1f foreign-enqueues %d",
                     runs, failures, virtualSeconds / 3600, wall, Double(runs) / max(wall, 0.001), foreign))
        return failures == 0 ? 0 : 1
    }
}

extension SimulatorCommand {
    static func simulationOptions(_ options: Options, seed: UInt64) -> SimulationOptions {
        var simulation = SimulationOptions(seed: seed, steps: options.steps, processes: options.processes, world: options.world,
                                           storage: options.storage)
        simulation.skippedSteps = options.skipped
        simulation.disabledFaults = options.faultsOff
        simulation.injectedFailure = options.inject
        return simulation
    }
}
