import Foundation
import Testing

/// The another-client world (`regstate-sim --world another-client`): the last slot's process is built for another
/// client of the same provider and shares the store with the world client's processes. `issuer-client-binding`: it
/// never takes their session, however they register, renew, crash and relaunch beside it.
@Suite("Simulation: a process of another client on the same store")
struct AnotherClientWorldTests {
    @Test("Given seeds in the another-client world, when each life runs, then every invariant holds and the other client's process never takes the session")
    func anotherClientSeeds() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..40", "--world", "another-client", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.filter { $0.contains("VIOLATION") }.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 40 failures 0"), "\(outcome.summary)")
        // The world client's processes held a session while the other client's launched beside it, and found none.
        #expect(outcome.lines.contains { $0.contains("register -> registered") })
        #expect(outcome.lines.contains { $0.contains("launched") && $0.contains("slot 1: registrationRequired D") })
        #expect(outcome.lines.contains { $0.contains("call  p") && $0.contains("validAccessToken -> noSession") })
    }

    /// 2141 (harness: a dead process's grant, on the wire when it crashed, was judged a needless renewal);
    /// 8280003082 (harness, issue 41: the other client's logout, from a failed registration, rightly left the world
    /// client's session on the store, and logout-clears took it for a session the logout should have ended).
    @Test("Given an another-client seed that once found a defect, when it runs again, then every invariant holds",
          arguments: [2141, 8_280_003_082])
    func anotherClientRegression(seed: Int) async throws {
        let outcome = try await SimulationProcess.run(["--seed", "\(seed)", "--world", "another-client"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }
}
