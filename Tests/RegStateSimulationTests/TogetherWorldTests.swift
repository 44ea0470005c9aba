import Foundation
import Testing

/// The together world (`regstate-sim --world together`): an app and its extensions wake at once, so every callers
/// action asks every process for a token, and their renewals of one expired token race for the store's lock.
/// `needless-renewal`: the process that waited uses the token the other stored meanwhile and presents nothing.
@Suite("Simulation: an app and its extensions waking together")
struct TogetherWorldTests {
    @Test("Given seeds in the together world, when each life runs, then every invariant holds and a process that waited for another's renewal used its token")
    func togetherSeeds() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..60", "--world", "together", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.filter { $0.contains("VIOLATION") }.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 60 failures 0"), "\(outcome.summary)")
        #expect(outcome.lines.contains { $0.contains("want a token on every slot") })
        // A step where one process's grant was answered and another process got a token without a grant of its own.
        var granted: [String: Set<String>] = [:]
        var served: [String: Set<String>] = [:]
        var run = 0
        for line in outcome.lines {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if fields.count > 1, fields[1] == "world" { run += 1 }
            guard fields.count > 4 else { continue }
            let step = "\(run)/\(fields[0])"
            if fields[1] == "net", line.contains("/oauth/token rt#"), line.contains("-> 200") {
                granted[step, default: []].insert(fields[2])
            } else if fields[1] == "call", fields[3] == "validAccessToken", fields.last == "token" {
                served[step, default: []].insert(fields[2])
            }
        }
        let raced = granted.contains { step, renewers in
            (served[step] ?? []).contains { !renewers.contains($0) }
        }
        #expect(raced, "no step where one process renewed and another was served without a grant")
    }

    /// A seed the ten-minute campaign of every world found on the shared session (the check's): slot 2's registration
    /// stored its provisional record and DPoP key and its process died; slot 0's forced logout left them (another
    /// process's registration), and the next launch of slot 2 crashed while removing the record, leaving the key. The
    /// key is that dead registration's, not the ended session's: it is excused with its record.
    @Test("Given a dead registration's provisional record and key on the shared store, when another process logs out and the next launch removes the record, then the key left is not the ended session's")
    func abandonedRegistrationKey() async throws {
        let outcome = try await SimulationProcess.run(["--seed", "10600007205", "--steps", "40", "--processes", "3",
                                                       "--disk", "shared-session", "--world", "together"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }
}
