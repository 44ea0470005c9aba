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
}
