import Foundation
import Testing

/// The refreshed-id world (`regstate-sim --world refreshed-id`): for a while now and then, the provider's refresh
/// answers carry an ID token naming another subject. `refreshed-id-token`: no such token is ever stored;
/// `rotation-kept`: the answer's rotated refresh token is, so the session outlives the bad answer (the provider retired
/// the token presented).
@Suite("Simulation: refresh answers with another subject's ID token")
struct RefreshedIDTokenWorldTests {
    @Test("Given seeds in the refreshed-id world, when each life runs, then every invariant holds, with refreshed ID tokens refused and sessions kept")
    func refreshedIDTokenSeeds() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..40", "--world", "refreshed-id", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.filter { $0.contains("VIOLATION") }.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 40 failures 0"), "\(outcome.summary)")
        #expect(outcome.lines.contains { $0.contains("refreshed ID tokens name another subject") })
        #expect(outcome.lines.contains { $0.contains("refreshedIdentityMismatch") }, "the engine refused such an answer")
    }

    /// 447 (engine: a refresh answer whose ID token could not be checked, the provider's keys unreachable, dropped
    /// its rotated refresh token; it is now kept as for a refused one); 346 and 833 (harness: a refresh answer the
    /// engine refused renewed nothing, so the next caller's renewal was not early).
    @Test("Given a refreshed-id seed that once found a defect, when it runs again, then every invariant holds",
          arguments: [447, 346, 833])
    func refreshedIDTokenRegression(seed: Int) async throws {
        let outcome = try await SimulationProcess.run(["--seed", "\(seed)", "--world", "refreshed-id"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }
}
