import Foundation
import Testing

/// The simulation's CI runs: a fixed set of seeds, the seeds that once found a defect, and a short random batch.
/// Each run drives the real engine through faults, crashes and users, then checks every invariant.
///
/// CI also runs them under the thread and the address sanitizer (Scripts/sanitize.sh): the same seeds, the same
/// invariants, with the deterministic scheduler driving every job on one thread.
@Suite("Simulation seeds", .serialized)
struct SimulationSeedTests {
    /// Seeds that found defects (in the engine or in the harness); each must keep passing.
    static let regressionSeeds: [UInt64] = [26, 29, 97, 142, 159, 523_783_238, 1_000_405, 1_000_599, 1_002_320, 1_004_883, 1_007_708]

    @Test("Given the fixed seeds, when each life runs, then every invariant holds")
    func fixedSeeds() throws {
        let outcome = try SimulationProcess.run(["--seeds", "1..80", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 80 failures 0"), "\(outcome.summary)")
    }

    @Test("Given the model of the store instead of the simulated file system, when seeds run, then every invariant holds")
    func modelDisk() throws {
        let outcome = try SimulationProcess.run(["--seeds", "1..20", "--disk", "model", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 20 failures 0"), "\(outcome.summary)")
    }

    @Test("Given a seed that once found a defect, when it runs again, then every invariant holds",
          arguments: regressionSeeds)
    func regression(seed: UInt64) throws {
        let outcome = try SimulationProcess.run(["--seed", "\(seed)"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }

    @Test("Given a seed, when it runs twice, then the two traces are byte for byte the same")
    func replayIsExact() throws {
        let first = try SimulationProcess.run(["--seed", "11", "--trace"])
        let second = try SimulationProcess.run(["--seed", "11", "--trace"])
        #expect(first.seedLines.count > 40)
        #expect(first.seedLines == second.seedLines)
        // Nothing reached the scheduler from another thread: the interleaving itself came from the seed.
        #expect(first.seedLines.last { $0.hasPrefix("seed 11 ") }?.hasSuffix("foreign 0") == true)
    }

    @Test("Given different seeds, when they run, then they explore different lives")
    func seedsDiffer() throws {
        let outcome = try SimulationProcess.run(["--seeds", "1..6"])
        let digests = outcome.seedLines.compactMap { line in line.split(separator: " ").dropFirst(4).first }
        #expect(Set(digests).count == 6)
    }

    @Test("Given a time box, when random seeds run until it closes, then every invariant holds")
    func timeBoxedBatch() throws {
        let outcome = try SimulationProcess.run(["--time-box", "15", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
        #expect(outcome.summary.contains("failures 0"))
    }
}
