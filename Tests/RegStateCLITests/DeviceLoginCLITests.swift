import Foundation
import RegStateTestSupport
import Testing

/// `regstate device-login` and the walkthrough's "Sign in on another device" on the embedded simulator, in child
/// processes: the code and the page printed (and in `--json`), every ending with its reason, a run stopped while the
/// user approves going on with the same code, and the device code in no output.
@Suite("CLI: sign in on another device")
struct DeviceLoginCLITests {
    /// The `--json` lines of `stdout`, as objects.
    static func objects(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// The user code a run printed (`and enter the code: ABCD-EFGH`).
    static func userCode(_ stdout: String) -> String? {
        stdout.split(separator: "\n").first { $0.contains("and enter the code:") }?
            .split(separator: " ").last.map(String.init)
    }

    @Test("Given a run stopped while the user approves, when it runs again, then the same code goes on to Active H")
    func stoppedRunResumes() async throws {
        let device = try CLIScenario()
        let first = try await device.run(["device-login"])     // the input ends: the other device never answers
        #expect(first.status == 3, "stderr: \(first.stderr)")
        #expect(first.stdout.contains("Sign In On Another Device"))
        #expect(first.stdout.contains("On a phone or a computer, open:"))
        #expect(first.stdout.contains("/activate"))
        #expect(first.stderr.contains("is still pending"))
        let code = try #require(Self.userCode(first.stdout))
        let second = try await device.run(["device-login"], input: "dana@example.com\n")
        #expect(second.status == 0, "stderr: \(second.stderr)")
        #expect(Self.userCode(second.stdout) == code, "the second run goes on with the first run's code")
        #expect(second.stdout.contains("Awaiting Confirmation G"))
        #expect(second.stdout.contains("Active H (social, online"))
        #expect(!FileManager.default.fileExists(
            atPath: device.store.appendingPathComponent("secure/pending_device_authorization").path))
        let status = try await device.run(["status"])
        #expect(status.status == 0)
        device.expectNoSecretsPrinted()
    }

    @Test("Given a run stopped while the user approves, when it runs again after the code expired, then a new code (the expired one is not taken up) goes on to Active H")
    func stoppedRunAfterExpiryStartsAnew() async throws {
        let device = try CLIScenario()
        let first = try await device.run(["device-login"])
        #expect(first.status == 3, "stderr: \(first.stderr)")
        let code = try #require(Self.userCode(first.stdout))
        let second = try await device.run(["device-login", "--sim-advance", "601"], input: "dana@example.com\n")
        #expect(second.status == 0, "stderr: \(second.stderr)")
        let fresh = try #require(Self.userCode(second.stdout))
        #expect(fresh != code, "the expired code is not taken up")
        #expect(second.stdout.contains("Active H (social, online"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given --json, then the code and the pages are members of one line, and denial ends in F authorization_denied")
    func jsonAndDenial() async throws {
        let device = try CLIScenario()
        let run = try await device.run(["device-login", "--json"], input: "deny\n")
        #expect(run.status == 1, "stderr: \(run.stderr)")
        let objects = Self.objects(run.stdout)
        let shown = try #require(objects.first { $0["event"] as? String == "signInOnAnotherDevice" })
        #expect(shown["letter"] == nil)
        #expect((shown["userCode"] as? String)?.count == 9)
        #expect((shown["verificationURI"] as? String)?.hasSuffix("/activate") == true)
        #expect((shown["verificationURIComplete"] as? String)?.contains("user_code=") == true)
        #expect(shown["expiresAt"] is String)
        #expect(shown["interval"] as? Double == 5)
        let failure = try #require(objects.last { $0["letter"] != nil })
        #expect(failure["letter"] as? String == "F")
        #expect(failure["reason"] as? String == "authorization_denied")
    }

    /// The `--json` result line a run ended with: `signedIn`, `reason`, and whether it has `expiresAt`.
    static func result(_ run: CLIResult) -> (signedIn: Bool?, reason: String?, expiresAt: Bool)? {
        guard let last = objects(run.stdout).last, last["result"] as? String == "device-login" else { return nil }
        return (last["signedIn"] as? Bool, last["reason"] as? String, last["expiresAt"] is String)
    }

    @Test("Given --json, then every ending is one last result line with its reason code: pending at the end of input (exit 3, with expiresAt), H, already active, denied, expired")
    func jsonResultForEveryEnding() async throws {
        let device = try CLIScenario()
        let pending = try await device.run(["device-login", "--json"])
        #expect(pending.status == 3)
        let waiting = try #require(Self.result(pending), "stdout: \(pending.stdout)")
        #expect(waiting.signedIn == false && waiting.reason == "device_authorization_pending" && waiting.expiresAt)
        let approved = try await device.run(["device-login", "--json"], input: "dana@example.com\n")
        #expect(approved.status == 0, "stderr: \(approved.stderr)")
        let signedIn = try #require(Self.result(approved), "stdout: \(approved.stdout)")
        #expect(signedIn.signedIn == true && signedIn.reason == nil)
        let again = try await device.run(["device-login", "--json"])
        #expect(again.status == 0)
        let active = try #require(Self.result(again), "stdout: \(again.stdout)")
        #expect(active.signedIn == true && active.reason == "session_already_active")
        for (input, reason) in [("deny", "authorization_denied"), ("expire", "code_expired")] {
            let other = try CLIScenario()
            let run = try await other.run(["device-login", "--json"], input: input + "\n")
            #expect(run.status == 1)
            let ended = try #require(Self.result(run), "stdout: \(run.stdout)")
            #expect(ended.signedIn == false && ended.reason == reason)
            #expect(Self.objects(run.stdout).last { $0["letter"] != nil }?["reason"] as? String == reason,
                    "the result's reason is the lettered F's")
        }
        device.expectNoSecretsPrinted()
    }

    @Test("Given the code left to expire, then F code_expired and nothing is stored")
    func expiry() async throws {
        let device = try CLIScenario()
        let run = try await device.run(["device-login", "--json"], input: "expire\n")
        #expect(run.status == 1, "stderr: \(run.stderr)")
        #expect(Self.objects(run.stdout).last?["reason"] as? String == "code_expired")
        for record in ["credentials", "pending_device_authorization"] {
            #expect(!FileManager.default.fileExists(atPath: device.store.appendingPathComponent("secure/\(record)").path))
        }
    }

    @Test("Given the walkthrough, when the user picks 4, approves and confirms, then Active H")
    func walkthroughMenuEntry() async throws {
        let device = try CLIScenario()
        let run = try await device.run([], input: "4\nerin@example.com\n1\n")
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("4  Sign in on another device"))
        #expect(run.stdout.contains("Sign In On Another Device"))
        #expect(run.stdout.contains("Active H"))
        device.expectNoSecretsPrinted()
    }
}
