import Foundation
import Testing

/// The rejecting-backend world (`--world rejecting`): the backend's API answers 401 to every token for the whole run,
/// while users call it from two processes that crash and relaunch. Invariants: `rejection-hold` (renewals for
/// rejections come no sooner than the stored hold allows, across launches and processes), `live-security-tokens`
/// (replaced security tokens are retired), and the common ones (no session lost to a rejection: `logout-rules`,
/// `session-honoured`). The mutation rows `rejection-hold-ignored` and `security-token-retired`
/// (Scripts/mutations.txt) show each of the first two catching its defect.
@Suite("Simulation: the rejecting-backend world", .serialized)
struct RejectingBackendWorldTests {
    /// Seeds of this world that found engine defects: 82, 98 (a caller with another token than the pending
    /// renewal's started a second flight, and the first one's waiters waited forever), 64 (a caller that found a
    /// renewal pending exchanged the fresh token it had stored again: two security tokens for one expiry).
    static let regressionSeeds: [UInt64] = [64, 82, 98]

    @Test("Given seeds in the rejecting world, when each life runs, then every invariant holds, renewals for rejections happened and chained, and both carriers ran")
    func rejectingSeeds() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..40", "--world", "rejecting", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.filter { $0.contains("VIOLATION") }.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 40 failures 0"), "\(outcome.summary)")
        let checks = outcome.lines.filter { $0.contains("check rejecting backend:") }
        #expect(checks.count == 40)
        #expect(checks.contains { !$0.contains(" 0 renewal(s) for rejections") })
        #expect(checks.contains { $0.contains("longest chain 2") || $0.contains("longest chain 3") })
        #expect(outcome.lines.contains { $0.hasSuffix("the API takes the accessToken") })
        #expect(outcome.lines.contains { $0.hasSuffix("the API takes the securityToken") })
        #expect(outcome.lines.contains { $0.contains("rejectedAfterRenewal") })
    }

    @Test("Given a rejecting-world seed that once found a defect, when it runs again, then every invariant holds",
          arguments: regressionSeeds)
    func regression(seed: UInt64) async throws {
        let outcome = try await SimulationProcess.run(["--seed", "\(seed)", "--world", "rejecting"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }

    /// Seeds the ten-minute campaigns on 5750bd5 found, both the check's (rejection-hold): a renewal that was due when
    /// the engine decided it, with the clock set back before its request left, looked young to the check, and so like
    /// a renewal for the rejection another process had seen: 9920020741 on the file store, 9920012282 on the Keychain.
    static let clockSetBackSeeds: [(UInt64, String)] = [(9_920_020_741, "files"), (9_920_012_282, "keychain")]

    @Test("Given a renewal that was due, and the clock set back before it left, when the rejecting world runs, then no rejection hold is judged broken",
          arguments: clockSetBackSeeds)
    func clockSetBack(seed: UInt64, disk: String) async throws {
        let outcome = try await SimulationProcess.run(["--seed", "\(seed)", "--steps", "40", "--processes", "2",
                                                       "--disk", disk, "--world", "rejecting"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }

    /// Seeds two minutes of this world on d3cca00 found, both the checks'. 9940005517 (rejection-hold): a second
    /// registration on the shared store in the other process, whose launch renewal (due) came while the first
    /// session's fresh token stood rejected, looked like a renewal for that rejection, and the first process's renewal
    /// for its own rejection right after like the second of a chain; the audit now follows each token's lineage.
    /// 9940004188 (needless-renewal): the clock set back 374 s put the stored ID token's `iat` in the backend's
    /// future, the backend refused it for a security token, and the engine renewed the provider tokens for a fresh ID
    /// token to exchange (its design: ``RegStateService`` renews once when the backend refuses the ID token), with
    /// 3003 s left on the access token; a refused exchange now explains one such renewal.
    static let sharedStoreSeeds: [UInt64] = [9_940_005_517, 9_940_004_188]

    @Test("Given a second session on the shared store, or an ID token the backend refused after the clock was set back, when the rejecting world runs, then no renewal is judged needless or against the hold",
          arguments: sharedStoreSeeds)
    func sharedStore(seed: UInt64) async throws {
        let outcome = try await SimulationProcess.run(["--seed", "\(seed)", "--steps", "40", "--processes", "2",
                                                       "--world", "rejecting"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }

    /// A seed a three-minute campaign of this world on the Keychain disk (f099649) found, the engine's
    /// (rejection-hold-bound): a failed security-token renewal settled with `rejectionHeld(until:)` answered its token's
    /// callers again after the clock was set back 787 s, 842 s ahead of now with a hold whose backoff was 60 s.
    @Test("Given a settled held rejection and the clock set back since, when the rejecting world runs on the Keychain, then no rejection is held longer than its backoff")
    func settledHoldAfterSetBack() async throws {
        let outcome = try await SimulationProcess.run(["--seed", "10090006337", "--steps", "40", "--processes", "2",
                                                       "--disk", "keychain", "--world", "rejecting"])
        #expect(outcome.status == 0, "\(outcome.lines.joined(separator: "\n"))")
    }

    /// A seed of the ten-minute campaign of the Keychain disks (engine, 11810032432): a relaunch read the security
    /// token's record under the lock, the device locked before the hold was read a second time, and the refused read
    /// answered "not held": a second renewal for a rejection 2 s into a 30 s hold. The hold is read from the record
    /// just read now.
    @Test("Given a device that locks between the record's read and the hold's, when a rejection is renewed under the lock, then the hold stands")
    func holdReadFromTheRecordJustRead() async throws {
        let outcome = try await SimulationProcess.run(["--seed", "11810032432", "--steps", "40", "--processes", "2",
                                                       "--disk", "shared-session", "--world", "rejecting", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.filter { $0.contains("VIOLATION") }.prefix(3).joined(separator: "\n"))")
        #expect(outcome.lines.contains { $0.contains("rejectionHeld(until:") })
        #expect(outcome.lines.contains { $0.contains("device locked") })
    }
}
