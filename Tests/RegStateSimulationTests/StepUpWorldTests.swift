import Testing

/// The step-up world's seeds that once found a defect (in the engine or in a check), run again.
@Suite("Simulation: the step-up world's regression seeds")
struct StepUpWorldTests {
    /// 9900007953 (check, durable-writes, found by the ten-minute step-up campaign): the first write of the pending
    /// step-up crashed after its rename and before the directory's sync, so the step-up did not begin; a power loss
    /// later took the record back to nothing, as it may, and the check, which knew no state of the record before
    /// that write, took the lost rename for a returned write lost.
    static let regressionSeeds: [UInt64] = [9_900_007_953]

    @Test("Given a step-up world seed that once failed, when it runs again, then every invariant holds",
          arguments: regressionSeeds)
    func regression(seed: UInt64) async throws {
        let outcome = try await SimulationProcess.run(["--seed", "\(seed)", "--steps", "40", "--processes", "2",
                                                       "--world", "step-up"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }
}
