import Foundation
import RegStateSimulation

// regstate-sim: runs seeded lives of the real engine in a simulated world and checks the invariants.
//   regstate-sim --seed N [--trace]          one run; --trace prints every line of it
//   regstate-sim --seeds A..B                a range of seeds
//   regstate-sim --time-box SECONDS [--start N]   as many seeds as fit, from N (default: from the clock)
//   --steps K (actions per run, default 40), --processes P (default 2), --quiet (only failures and the summary)
//   --world plain|dpop|host|par|budget|rejecting|forged|memory|shared-journal|another-client|refreshed-id|together|device (default: drawn from the seed), --skip STEPS and --faults-off KINDS (what a shrunk replay
//   leaves out), --shrink (with --seed: shorten a failing run, print the shortest failing replay),
//   --inject-failure NAME (test-only: an invariant that fails on purpose, to test the shrinker)
//   --disk files|model|keychain  the real file store and journal over a simulated file system (default), the store
//   model, or the model as Apple's Keychain (items apart from the lock between processes, a device that locks)
// Swift seeds its hashing per process; a replay needs the same order of every Set and Dictionary, so the simulator
// runs with deterministic hashing (it re-executes itself once with the variable set).
if ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil {
    setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
    var arguments = CommandLine.arguments.map { strdup($0) }
    arguments.append(nil)
    execv("/proc/self/exe", arguments)
    FileHandle.standardError.write(Data("regstate-sim: cannot re-execute with deterministic hashing\n".utf8))
    exit(70)
}
let status = SimulatorCommand.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
