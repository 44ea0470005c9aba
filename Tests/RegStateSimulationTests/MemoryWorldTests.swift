import Foundation
import Testing

/// The memory world (`--world memory`): one long life per process, with event subscribers coming and going,
/// renewals, logouts and registrations; every step, what each live service retains (subscribers, flights, DPoP
/// nonces, remembered pending logins) stays within what its app holds.
@Suite("Simulation: the memory world", .serialized)
struct MemoryWorldTests {
    @Test("Given a long life in the memory world, when it runs for a thousand steps, then memory-bounded and every other invariant hold, with subscribers, registrations and renewals along the way")
    func longLife() async throws {
        let outcome = try await SimulationProcess.run(["--seed", "1", "--world", "memory", "--steps", "1000", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.filter { $0.contains("VIOLATION") || $0.hasPrefix("  ") }.prefix(5).joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 1 failures 0"), "\(outcome.summary)")
        #expect(outcome.lines.filter { $0.contains(" subscribes (") }.count > 100)
        #expect(outcome.lines.filter { $0.contains(" unsubscribes (") }.count > 100)
        #expect(outcome.lines.filter { $0.contains(" launched (") }.count < 20, "a life lasts: few launches")
        #expect(outcome.lines.contains { $0.contains("register -> registered") })
        #expect(outcome.lines.contains { $0.contains("check memory: at most") })
    }
}
