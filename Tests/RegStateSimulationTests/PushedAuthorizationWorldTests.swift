import Foundation
import Testing

/// The PAR world (`--world par`): registrations push their authorization requests (RFC 9126) through the faulty
/// network, the provider sometimes refuses every push, and every invariant holds.
@Suite("Simulation: the PAR world", .serialized)
struct PushedAuthorizationWorldTests {
    @Test("Given seeds in the PAR world, when each life runs, then every invariant holds and registrations went through /par")
    func parSeeds() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..30", "--world", "par", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 30 failures 0"), "\(outcome.summary)")
    }

    @Test("Given one PAR-world seed traced, then its ledger names the provider's PAR offer and the engine's mode")
    func ledgerNamesPAR() async throws {
        let outcome = try await SimulationProcess.run(["--seed", "3", "--world", "par", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.suffix(40).joined(separator: "\n"))")
        #expect(outcome.lines.contains { $0.contains("world provider PAR") }, "\(outcome.lines.prefix(20).joined(separator: "\n"))")
    }
}
