import Foundation
import Testing

/// The shared-journal world (`--world shared-journal`): every process appends to one journal file, processes die
/// part-way through their appends, and whichever process crosses the threshold compacts the others' lines; the
/// journal's invariants (intact, durable, bounded, numbered in order) hold on the shared file.
@Suite("Simulation: the shared-journal world", .serialized)
struct SharedJournalWorldTests {
    @Test("Given seeds in the shared-journal world with three processes, when each life runs, then every invariant holds though processes died mid-append")
    func sharedJournalSeeds() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..8", "--world", "shared-journal", "--processes", "3", "--steps", "100", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.filter { $0.hasPrefix("  ") }.prefix(5).joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 8 failures 0"), "\(outcome.summary)")
        #expect(outcome.lines.contains { $0.contains("CRASH at system call") && $0.contains("(write,") })
        #expect(outcome.lines.contains { $0.contains("compacted") })
    }
}
