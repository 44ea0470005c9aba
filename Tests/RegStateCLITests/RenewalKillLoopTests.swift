import Foundation
import RegStateTestSupport
import Testing

/// `regstate status` processes SIGKILLed at random points while they renew, then relaunched (issue 13): child
/// processes, not threads. The simulator holds each answer 0.3 s after applying the request (`--sim-answer-delay`),
/// so some kills land after the provider rotated the refresh token and before the answer was stored.
@Suite("Renewals killed at random")
struct RenewalKillLoopTests {
    static let iterations = 10
    static let interruptedText = "An earlier renewal was interrupted before its answer was saved"

    /// What the relaunches found.
    struct Counts: CustomStringConvertible {
        var killedMidRun = 0
        var finishedBeforeKill = 0
        var interruptedMarks = 0
        var active = 0
        var lostWithTypedReason = 0
        var description: String {
            "kills \(killedMidRun) (finished before the kill \(finishedBeforeKill)), renewal mark left \(interruptedMarks), "
                + "relaunch Active \(active), lost with interruptedRenewalRefused \(lostWithTypedReason)"
        }
    }

    static func killLoop(grace: [String]) async throws -> Counts {
        let binary = try #require(BuiltProducts.executable("regstate"), "regstate not built")
        let device = try CLIScenario()
        try await device.registerSocially()
        var counts = Counts()
        for _ in 0..<Self.iterations {
            try SharedStoreProcessTests.expireStoredAccessToken(in: device)
            let process = Process()
            process.executableURL = binary
            process.arguments = ["status", "--store", device.store.path, "--sim-answer-delay", "0.3"] + grace
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...1_200_000_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                counts.killedMidRun += 1
            } else {
                counts.finishedBeforeKill += 1
            }
            process.waitUntilExit()
            let credentials = device.store.appendingPathComponent("secure/credentials")
            if let data = FileManager.default.contents(atPath: credentials.path) {
                // Never torn: the record the killed process left is whole JSON.
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                #expect(object != nil, "the credentials record is whole")
                if object?["renewal_started_at"] != nil { counts.interruptedMarks += 1 }
            }
            // CLIProcess kills a run that takes too long and the test fails: a hang is caught.
            let relaunch = try await device.run(["status"] + grace)
            switch relaunch.status {
            case 0:
                #expect(relaunch.stdout.contains("State: Active"), "got: \(relaunch.stdout)")
                counts.active += 1
            case 3:
                #expect(relaunch.stdout.contains(Self.interruptedText) || relaunch.stderr.contains(Self.interruptedText),
                        "a lost session names the interrupted renewal: \(relaunch.stdout) \(relaunch.stderr)")
                counts.lostWithTypedReason += 1
                try await device.registerSocially()
            default:
                Issue.record("relaunch exited \(relaunch.status) (a crash?): \(relaunch.stdout) \(relaunch.stderr)")
                return counts
            }
        }
        let journal = try await device.run(["events"])
        #expect(journal.status == 0, "the journal reads after the kills: \(journal.stderr)")
        device.expectNoSecretsPrinted()
        return counts
    }

    @Test("With a provider reuse grace, renewals killed at random never lose the session")
    func graceLosesNothing() async throws {
        let counts = try await Self.killLoop(grace: ["--sim-reuse-grace", "60"])
        print("RenewalKillLoop grace 60 s: \(counts)")
        #expect(counts.lostWithTypedReason == 0)
        #expect(counts.active == Self.iterations, "\(counts)")
    }

    @Test("Without a grace, every session lost to a killed renewal ends with interruptedRenewalRefused, never a crash or a torn store")
    func strictLossesAreTyped() async throws {
        let counts = try await Self.killLoop(grace: [])
        print("RenewalKillLoop strict: \(counts)")
        #expect(counts.active + counts.lostWithTypedReason == Self.iterations, "\(counts)")
    }
}
