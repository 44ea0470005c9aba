import Foundation
import Testing

/// The simulation's CI runs: a fixed set of seeds, the seeds that once found a defect, and a short random batch.
/// Each run drives the real engine through faults, crashes and users, then checks every invariant.
///
/// CI also runs them under the thread and the address sanitizer (Scripts/sanitize.sh): the same seeds, the same
/// invariants, with the deterministic scheduler driving every job on one thread.
@Suite("Simulation seeds", .serialized)
struct SimulationSeedTests {
    /// Seeds that found defects (in the engine or in the harness) in the plain world (self-renewing, bearer tokens);
    /// each must keep passing there. 6010085182 (engine, found by the million-run campaign: while the issuer's keys
    /// were out of reach, every wave of callers spent a rotation whose answer could not be checked and so was not
    /// used; a renewal now fetches the keys first and, without them, stays offline presenting nothing).
    static let regressionSeeds: [UInt64] = [26, 29, 97, 142, 159, 523_783_238, 1_000_405, 1_000_599, 1_002_320, 1_004_883, 1_007_708,
                                            6_010_085_182]
    /// Host-world seeds that found defects: 6 (engine: a user logout with an expired security token ended the
    /// session without reaching a server, so also offline), 45 (harness: a token pushed into an active session and
    /// refused leaves F as the latest event, by design), 71 and 146 (harness: a logout with no session left on disk);
    /// DPoP world: 537169787 (engine: a registration started in another process replaced the bound session's key);
    /// host: 540419069, 4008602719 (engine: a caller that saw another process's newer security token told the host
    /// a second time while it was already asked), 3998600250 (harness: a proxy's answer shows the device online);
    /// DPoP: 541203867 (harness: durable-writes took a whole-line prefix of a half-done multi-line journal append,
    /// which JournalWrite.appendLines allows, for a lost write); 3998601549, 4008600885 (engine: a call read the old
    /// bound token and another process's new key between that registration's two writes); host: 4222503105 (harness:
    /// a process the file system killed at a system call kept a caller waiting for a host answer past the heal),
    /// 4272702228 (harness: the logout of a process that died during it was judged), 4272702890 (harness: on the
    /// simulated file system a logout that another process's logout ended was taken for one that reached no server),
    /// 4262704401 (harness: a journal read that wrote nothing took a dead process's unsynced bytes as must-survive);
    /// 7179832201, 7480720819, 7490734638 (engine: a compaction that died between its rename and the directory fsync
    /// left the journal's name not durable, so a power loss took back every append made since; the journal now syncs
    /// its directory the first time it meets a file under its name), 7490735389 (harness: a user logout that another
    /// process's forced logout ended meanwhile was taken for one that reached no server).
    /// DPoP: 7364020475 (engine, a registration promoted the registration key record, which another
    /// process's registration had replaced since its token request, so the record named a key the tokens were not
    /// bound to; the attempt now promotes the key it proved its token request with). Plain: 693636897 (engine: a
    /// user logout in a process whose own session another process had replaced with a new registration left that
    /// session on disk; a confirmed session is every process's to end, provisional tokens only their writer's).
    /// 704749998, 704764686 (harness: a logout in a process whose session another had ended left that other
    /// process's provisional tokens, from a registration it died in before confirming; they are not the ended
    /// session's, and the next launch removes them), 704792205 (harness: a second host logout in the same process,
    /// answered with the first one's outcome, was taken for one that reached no server); 774700158, 774700367
    /// (engine: the launch that removed an abandoned registration's provisional tokens left the DPoP key promoted for
    /// them; it now removes both under the store's lock), 774719547 (harness: a user logout whose session another
    /// process's forced logout had removed from the file system meanwhile was taken for one that reached no server);
    /// 85 (engine, with 41 and 57 of the fixed seeds: a process that died between journaling a forced logout and
    /// rewriting the journal without the user left the user in it; the end and the forgetting are now one write);
    /// 1868727463 (engine: a removal that found the file already gone — another process's unlink, which that process
    /// died before syncing — returned without syncing the directory, and a power loss brought the session back);
    /// host: 6000201792 (harness, the million-run campaign: a user logout that waited for the store's lock while the
    /// same process's forced logout, ordered by the backend, ended the session was taken for one that reached no
    /// server).
    static let worldRegressionSeeds: [UInt64] = [6, 45, 71, 146, 537_169_787, 540_419_069, 4_008_602_719, 3_998_600_250,
                                                 541_203_867, 3_998_601_549, 4_008_600_885, 4_222_503_105,
                                                 4_272_702_228, 4_272_702_890, 4_262_704_401, 4_272_701_393,
                                                 7_179_832_201, 7_480_720_819, 7_490_734_638, 7_490_735_389,
                                                 7_364_020_475, 693_636_897, 704_749_998, 704_764_686, 704_792_205,
                                                 774_700_158, 774_700_367, 774_719_547, 85,
                                                 1_868_727_463, 6_000_201_792]

    @Test("Given the fixed seeds, when each life runs, then every invariant holds")
    func fixedSeeds() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..80", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 80 failures 0"), "\(outcome.summary)")
    }

    @Test("Given the model of the store instead of the simulated file system, when seeds run, then every invariant holds")
    func modelDisk() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..20", "--disk", "model", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 20 failures 0"), "\(outcome.summary)")
    }

    @Test("Given a seed that once found a defect, when it runs again, then every invariant holds",
          arguments: regressionSeeds)
    func regression(seed: UInt64) async throws {
        let outcome = try await SimulationProcess.run(["--seed", "\(seed)", "--world", "plain"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }

    @Test("Given a host or DPoP world's seed that once found a defect, when it runs again, then every invariant holds",
          arguments: worldRegressionSeeds)
    func worldRegression(seed: UInt64) async throws {
        let outcome = try await SimulationProcess.run(["--seed", "\(seed)"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }

    @Test("Given long lives (200 steps), when they run, then every invariant holds, the journal's bound too")
    func longLives() async throws {
        // With compaction broken (JournalRecorder.compact() returning at once) seeds 2, 6 and 8 fail journal-bounded;
        // at 40 steps no journal grows past the bound.
        let outcome = try await SimulationProcess.run(["--seeds", "1..8", "--steps", "200", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 8 failures 0"), "\(outcome.summary)")
    }

    @Test("Given a failing run (a test-only invariant), when it is shrunk, then the replay keeps two actions and fails")
    func shrinkerShortens() async throws {
        let shrunk = try await SimulationProcess.run(["--seed", "11", "--inject-failure", "crash-while-offline", "--shrink"])
        #expect(shrunk.status == 1)
        let summary = try #require(shrunk.lines.first { $0.hasPrefix("shrunk seed 11 (injected)") })
        // The failure needs the network offline and a crash: the shortest schedule keeps those two actions.
        #expect(summary.contains("actions 40 -> 2 "), "\(summary)")
        let replay = try #require(shrunk.lines.first { $0.hasPrefix("  replay: ") })
        let arguments = try #require(replay.components(separatedBy: "regstate-sim ").last).split(separator: " ").map(String.init)
        #expect(arguments.contains("--skip"))
        let replayed = try await SimulationProcess.run(arguments)
        #expect(replayed.status == 1)
        #expect(replayed.lines.contains { $0.contains("VIOLATION injected:") })
        #expect(replayed.lines.filter { $0.dropFirst(4).hasPrefix("act ") }.count <= 3)
    }

    @Test("Given a passing seed, when it is shrunk, then there is nothing to shrink")
    func shrinkerNeedsAFailure() async throws {
        let outcome = try await SimulationProcess.run(["--seed", "11", "--shrink"])
        #expect(outcome.status == 0)
        #expect(outcome.lines.first == "seed 11 passes: nothing to shrink")
    }

    @Test("Given a seed, when it runs twice, then the two traces are byte for byte the same",
          arguments: [(11, "plain"), (1, "host"), (10, "dpop")])
    func replayIsExact(seed: Int, world: String) async throws {
        let first = try await SimulationProcess.run(["--seed", "\(seed)", "--trace"])
        let second = try await SimulationProcess.run(["--seed", "\(seed)", "--trace"])
        #expect(first.seedLines.count > 40)
        #expect(first.seedLines.first?.contains("world \(world) ") == true)
        #expect(first.seedLines == second.seedLines)
        // Nothing reached the scheduler from another thread: the interleaving itself came from the seed.
        #expect(first.seedLines.last { $0.hasPrefix("seed \(seed) ") }?.hasSuffix("foreign 0") == true)
    }

    @Test("Given different seeds, when they run, then they explore different lives")
    func seedsDiffer() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..6"])
        let digests = outcome.seedLines.compactMap { line in line.split(separator: " ").dropFirst(4).first }
        #expect(Set(digests).count == 6)
    }

    @Test("Given --world mixed, when seeds run, then each life draws its world and disk from its seed, the summary counts runs and failures per world, and a life replays exactly from the world, disk and processes it names")
    func mixedWorlds() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..60", "--world", "mixed", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 60 failures 0"), "\(outcome.summary)")
        let worlds = outcome.lines.filter { $0.hasPrefix("world ") }
        #expect(worlds.count >= 12, "\(worlds)")
        #expect(worlds.contains { $0.hasPrefix("world keychain/") } && worlds.contains { $0.hasPrefix("world shared-session/") })
        let counted = worlds.compactMap { Int($0.split(separator: " ")[3]) }.reduce(0, +)
        #expect(counted == 60)
        // A drawn life is an ordinary run: the same trace as the replay that names its cell.
        let drawn = try await SimulationProcess.run(["--seed", "7", "--world", "mixed", "--trace"])
        let world = try #require(drawn.lines.first { $0.hasPrefix("world ") }?.split(separator: " ")[1])
        let parts = world.split(separator: "/").map(String.init)
        let header = try #require(drawn.seedLines.first)
        let processes = drawn.seedLines.filter { $0.contains(" launched (first launch) slot ") }.count
        let replay = try await SimulationProcess.run(["--seed", "7", "--processes", "\(processes)", "--trace", "--world", parts.last ?? ""]
                                                     + (parts.count > 1 ? ["--disk", parts[0]] : []))
        #expect(replay.seedLines == drawn.seedLines, "\(header)")
    }

    @Test("Given a time box, when random seeds run until it closes, then every invariant holds")
    func timeBoxedBatch() async throws {
        let outcome = try await SimulationProcess.run(["--time-box", "15", "--quiet"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
        #expect(outcome.summary.contains("failures 0"))
    }
}
