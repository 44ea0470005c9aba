import Foundation
import Testing

/// The device world (`regstate-sim --world device`): every registration is a sign-in on another device (RFC 8628),
/// approved, denied or left to expire after a few polls, with `slow_down`s, while processes crash and relaunch.
/// `device-poll-interval`, `device-poll-expired`, `device-answer-once`, `device-resumes` and `device-code-secret`
/// hold in every life.
@Suite("Simulation: sign in on another device")
struct DeviceWorldTests {
    @Test("Given seeds in the device world, when each life runs, then every invariant holds and the grant's paths are taken")
    func deviceSeeds() async throws {
        let outcome = try await SimulationProcess.run(["--seeds", "1..40", "--world", "device", "--trace"])
        #expect(outcome.status == 0, "\(outcome.lines.filter { $0.contains("VIOLATION") }.joined(separator: "\n"))")
        #expect(outcome.summary.hasPrefix("runs 40 failures 0"), "\(outcome.summary)")
        #expect(outcome.lines.contains { $0.contains("deviceLogin -> registered on another device") })
        #expect(outcome.lines.contains { $0.contains("authorizationDenied") })
        #expect(outcome.lines.contains { $0.contains("codeExpired") })
        #expect(outcome.lines.contains { $0.contains("takes up the pending sign-in on another device") })
        #expect(outcome.lines.contains { $0.contains("check device:") && !$0.contains(" 0 slow_down(s)") })
    }

    /// A seed the ten-minute campaign of the Keychain disks found (the check's): a process crashed right after the
    /// provider delivered the token answer, before it removed its pending record; the next process took the sign-in
    /// up and polled again, as it can only do (the provider refuses a used code). A disk mishap or a process end since the
    /// answer now excuses that poll; a poll after an answer with no mishap between is still one too many.
    @Test("Given a crash right after the token answer on the Keychain disk, when the next process takes the sign-in up, then its poll is no second answer")
    func crashAfterTheAnswer() async throws {
        // 10510034351: a crash during the next write; 10910007653: the process itself crashed right after the answer.
        for seed in ["10510034351", "10910007653"] {
            let outcome = try await SimulationProcess.run(["--seed", seed, "--steps", "40", "--processes", "2",
                                                           "--disk", "keychain", "--world", "device"])
            #expect(outcome.status == 0, "\(seed): \(outcome.lines.joined(separator: "\n"))")
        }
    }
}
