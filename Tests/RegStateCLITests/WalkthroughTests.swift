import Foundation
import Testing

/// The walkthrough through a pipe, as a script or a person at a terminal drives it, then `status` in a later run.
@Suite("CLI walkthrough")
struct WalkthroughTests {
    @Test("Given a fresh store, when the social walkthrough is piped, then D, G, H are printed in order and status says Active B")
    func socialWalkthroughThenStatus() async throws {
        let device = try CLIScenario()
        let walkthrough = try await device.registerSocially()
        let titles = walkthrough.lines.map { $0.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces) }
        #expect(titles == ["Registration Required D", "Awaiting Confirmation G", "Active H"])
        #expect(walkthrough.stdout.contains("a***@example.com"), "the email is masked, as in --json and events")
        #expect(!walkthrough.stdout.contains("alice@example.com"))
        #expect(walkthrough.stderr.contains("1  Social login") && walkthrough.stderr.contains("1  Confirm"))

        let status = try await device.run(["status"])
        #expect(status.status == 0)
        #expect(status.lines.first?.hasPrefix("Active B") == true)
        #expect(status.stdout.contains("State: Active B"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given a fresh store, when the email walkthrough reads the code from the simulated inbox, then Active H and later Active B")
    func passwordlessWalkthroughThenStatus() async throws {
        let device = try CLIScenario()
        let walkthrough = try await device.registerByEmail()
        #expect(walkthrough.lines.count == 3)
        #expect(walkthrough.lines.last?.hasPrefix("Active H (passwordless") == true)

        let status = try await device.run(["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("Active B (passwordless"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given a wrong code, when the walkthrough goes on, then Error F is printed, the code is asked again, c cancels to D")
    func wrongCodeShowsF() async throws {
        let device = try CLIScenario()
        let result = try await device.run([], input: "2\ndave@example.com\n000000x\nc\nq\n")
        #expect(result.lines.contains { $0.hasPrefix("Error F") && $0.contains("not right") })
        #expect(result.stderr.components(separatedBy: "Code (r to resend, c to cancel):").count == 3)
        #expect(result.stderr.contains("Stopped at Registration Required D"))
        #expect(result.status == 3)
    }

    @Test("Given --json, when the social walkthrough runs, then every stdout line is a JSON object with letter and event")
    func jsonWalkthrough() async throws {
        let device = try CLIScenario()
        let result = try await device.run(["--json"], input: "1\nerin@example.com\n1\n")
        #expect(result.status == 0)
        let objects = try result.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.compactMap { $0["letter"] as? String } == ["D", "G", "H"])
        #expect(objects.compactMap { $0["event"] as? String } == ["registrationRequired", "awaitingConfirmation", "sessionActive"])
        #expect(result.stderr.contains("Choose"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given Retry at G, when the user registers again, then D is printed twice and the session is Active H")
    func retryThenConfirm() async throws {
        let device = try CLIScenario()
        let result = try await device.run([], input: "1\nfrank@example.com\n2\n1\nfrank@example.com\n1\n")
        #expect(result.status == 0)
        #expect(result.lines.filter { $0 == "Registration Required D" }.count == 2)
        #expect(result.lines.last?.hasPrefix("Active H") == true)
    }

    @Test("Given the input ends inside a menu, then the walkthrough says so and exits 1")
    func endOfInput() async throws {
        let device = try CLIScenario()
        let result = try await device.run([], input: "1\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("input ended"))
    }

    @Test("Given --platform web, then the walkthrough settles in Active A without a menu and status agrees")
    func webPlatformIsActiveA() async throws {
        let device = try CLIScenario()
        let walkthrough = try await device.run(["--platform", "web"])
        #expect(walkthrough.status == 0)
        #expect(walkthrough.lines.first?.hasPrefix("Active A") == true)
        #expect(!walkthrough.stderr.contains("Choose"))
        let status = try await device.run(["status", "--platform", "web"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("State: Active A"))
    }
}
