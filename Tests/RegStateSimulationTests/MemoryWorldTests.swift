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

    /// A seed a memory-world campaign found (the check's, 11600001191): one process's registration stored its new
    /// session while another process's logout ran, after that logout had removed the old one; the check took the new
    /// session for one the logout left behind. A registration that ends while a logout runs is not a comeback.
    @Test("Given a registration that ends while another process logs out, when the logout returns, then the new session on disk is not taken for the old one")
    func registrationDuringALogout() async throws {
        let outcome = try await SimulationProcess.run(["--seed", "11600001191", "--steps", "40", "--processes", "2",
                                                       "--world", "memory", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.filter { $0.contains("VIOLATION") }.prefix(3).joined(separator: "\n"))")
        let registered = try #require(outcome.lines.firstIndex { $0.contains("p2 register -> registered") })
        let loggedOut = try #require(outcome.lines.firstIndex { $0.contains("p1 logout -> the provider revoked") })
        #expect(registered < loggedOut)
        #expect(outcome.lines[..<registered].contains { $0.contains("credentials removed") })
    }
}
