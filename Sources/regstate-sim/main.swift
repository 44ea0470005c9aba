import Foundation
import RegStateSimulation

// regstate-sim: runs seeded lives of the real engine in a simulated world and checks the invariants.
// `regstate-sim --help` lists the options (SimulatorCommand+Help.swift).
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
