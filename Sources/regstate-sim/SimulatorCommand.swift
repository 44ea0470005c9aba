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
        var processesGiven = false
        var storage = SimulatedStorageKind.files
        var storageGiven = false
        /// `--world mixed`: each life's world, disk and processes drawn from its seed (``SimulationMix``).
        var mixed = false
        var trace = false
        var quiet = false
        var shrink = false
        var world: SimulationWorld?
        var skipped: Set<Int> = []
        var faultsOff: Set<SimulationFault> = []
        var inject: InjectedFailure?
    }

    /// What was wrong with the command line, naming the argument.
    struct UsageError: Error {
        var message: String
    }

    /// What the command line asks for: a run, or `--help`.
    enum Request {
        case run(Options)
        case help
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var options = Options()
        var rest = arguments[...]
        /// The value after `option`, read by `read`; the error names the option and what it takes.
        func value<T>(_ option: String, _ takes: String, _ read: (String) -> T?) throws(UsageError) -> T {
            guard let text = rest.popFirst() else { throw UsageError(message: "\(option) needs a value: \(takes)") }
            guard let value = read(text) else { throw UsageError(message: "\(option) \(text): expected \(takes)") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": return .help
            case "--seed":
                let seed = try value(argument, "a seed (0 or more)") { UInt64($0) }
                options.seeds = seed...seed
            case "--seeds":
                options.seeds = try value(argument, "a range A..B with A <= B") { text -> ClosedRange<UInt64>? in
                    let parts = text.components(separatedBy: "..")
                    guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low <= high else { return nil }
                    return low...high
                }
            case "--time-box": options.timeBox = try value(argument, "seconds") { Double($0) }
            case "--start": options.start = try value(argument, "a seed (0 or more)") { UInt64($0) }
            case "--steps": options.steps = try value(argument, "a number above 0") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
            case "--processes":
                options.processes = try value(argument, "1 to 4") { Int($0).flatMap { (1...4).contains($0) ? $0 : nil } }
                options.processesGiven = true
            case "--world":
                let worlds = (SimulationWorld.allCases.map(\.rawValue) + ["mixed"]).joined(separator: "|")
                let name = try value(argument, worlds) { $0 == "mixed" || SimulationWorld(rawValue: $0) != nil ? $0 : nil }
                options.world = SimulationWorld(rawValue: name)
                options.mixed = options.world == nil
            case "--skip": options.skipped = try value(argument, "a step list such as 3,7-9") { StepList.parse($0) }
            case "--faults-off":
                let kinds = SimulationFault.allCases.map(\.rawValue).joined(separator: ",")
                options.faultsOff = try value(argument, "a comma-separated list of \(kinds)") { text -> Set<SimulationFault>? in
                    let faults = text.split(separator: ",").map { SimulationFault(rawValue: String($0)) }
                    return faults.contains(nil) ? nil : Set(faults.compactMap { $0 })
                }
            case "--inject-failure":
                let names = InjectedFailure.allCases.map(\.rawValue).joined(separator: "|")
                options.inject = try value(argument, names) { InjectedFailure(rawValue: $0) }
            case "--shrink": options.shrink = true
            case "--disk":
                let kinds = SimulatedStorageKind.allCases.map(\.rawValue).joined(separator: "|")
                options.storage = try value(argument, kinds) { SimulatedStorageKind(rawValue: $0) }
                options.storageGiven = true
            case "--trace": options.trace = true
            case "--quiet": options.quiet = true
            default: throw UsageError(message: "unknown option \(argument)")
            }
        }
        if options.seeds == nil, options.timeBox == nil {
            throw UsageError(message: "say which lives to run: --seed N, --seeds A..B or --time-box SECONDS")
        }
        if options.shrink, options.seeds?.count != 1 { throw UsageError(message: "--shrink needs one seed (--seed N)") }
        return .run(options)
    }

    static func main(_ arguments: [String]) -> Int32 {
        if let world = arguments.firstIndex(of: "--world"), arguments.indices.contains(world + 1),
           arguments[world + 1] == "fleet" {
            return FleetCommand.main(arguments)
        }
        let options: Options
        do {
            switch try parse(arguments) {
            case .help:
                print(help, terminator: "")
                return 0
            case .run(let parsed): options = parsed
            }
        } catch {
            FileHandle.standardError.write(Data("regstate-sim: \(error.message)\n\(usage)regstate-sim --help lists the options.\n".utf8))
            return 64
        }
        if options.shrink, let seed = options.seeds?.lowerBound {
            return Shrinker.main(simulationOptions(options, seed: seed))
        }
        let began = Date()
        var runs = 0, failures = 0, virtualSeconds = 0.0, foreign = 0
        // Runs and failures per world (and disk), for the campaign's table.
        var perWorld: [String: (runs: Int, failures: Int)] = [:]
        var seed = options.seeds?.lowerBound ?? options.start ?? UInt64(began.timeIntervalSince1970 * 1000) % 1_000_000_000
        while true {
            if let seeds = options.seeds, seed > seeds.upperBound { break }
            if options.seeds == nil, let box = options.timeBox, Date().timeIntervalSince(began) >= box { break }
            let life = simulationOptions(options, seed: seed)
            let outcome = SimulationDriver.run(life)
            let world = SimulationMix.name(world: life.resolvedWorld, storage: life.storage)
            perWorld[world, default: (0, 0)].runs += 1
            if !outcome.result.passed { perWorld[world, default: (0, 0)].failures += 1 }
            runs += 1
            virtualSeconds += outcome.result.virtualSeconds
            foreign += outcome.scheduler.foreignEnqueues
            if options.trace { outcome.result.trace.forEach { print($0) } }
            if outcome.result.passed {
                if !options.quiet { print("seed \(seed) ok digest \(outcome.result.digest) grants \(outcome.result.refreshGrants) jobs \(outcome.scheduler.jobs) foreign \(outcome.scheduler.foreignEnqueues)") }
            } else {
                failures += 1
                print("seed \(seed) FAILED digest \(outcome.result.digest) world \(world)")
                outcome.result.violations.forEach { print("  \($0)") }
                print("  replay: \(Shrinker.replayCommand(life))")
                print("  shrink: \(Shrinker.replayCommand(life, last: "--shrink"))")
            }
            seed += 1
        }
        let wall = Date().timeIntervalSince(began)
        for (world, tally) in perWorld.sorted(by: { $0.key < $1.key }) {
            print("world \(world) runs \(tally.runs) failures \(tally.failures)")
        }
        print(String(format: "runs %d failures %d virtual-hours %.1f wall %.1fs runs/s %.1f foreign-enqueues %d",
                     runs, failures, virtualSeconds / 3600, wall, Double(runs) / max(wall, 0.001), foreign))
        return failures == 0 ? 0 : 1
    }
}

extension SimulatorCommand {
    static func simulationOptions(_ options: Options, seed: UInt64) -> SimulationOptions {
        var simulation = SimulationOptions(seed: seed, steps: options.steps, processes: options.processes, world: options.world,
                                           storage: options.storage)
        if options.mixed {
            // The life's cell, named in full, so its replay needs no --world mixed.
            let mix = SimulationMix.drawn(for: seed, disk: options.storageGiven ? options.storage : nil)
            simulation.world = mix.world
            simulation.storage = mix.storage
            if !options.processesGiven { simulation.processes = mix.processes }
        }
        simulation.skippedSteps = options.skipped
        simulation.disabledFaults = options.faultsOff
        simulation.injectedFailure = options.inject
        return simulation
    }
}
