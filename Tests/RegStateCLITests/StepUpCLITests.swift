import Foundation
import RegState
import Testing

/// Step-up in the CLI (issue 45): `call` prints what the API asked for and the command that meets it, renewing
/// nothing; `step-up` signs the same user in again (another account refused, the store file left byte for byte);
/// `status` shows when the user signed in and the acr.
@Suite("CLI step-up")
struct StepUpCLITests {
    @Test("Given an API demanding max_age, call prints the step-up command; step-up as another user is refused, as the user it succeeds and call passes")
    func callStepUpCall() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let asked = try await device.run(["call", "--sim-api-max-age", "300", "--sim-advance", "600", "--json"])
        #expect(asked.status == 1)
        #expect(asked.stderr.contains("The API asks for a new sign-in (signed in within the last 300 s): nothing was renewed."), "\(asked.stderr)")
        #expect(asked.stderr.contains("step-up --max-age 300"))
        #expect(asked.stdout.contains(#""error":"stepUpRequired""#) && asked.stdout.contains(#""max_age":300"#), "\(asked.stdout)")
        #expect(!asked.stdout.contains("Active C"))  // nothing was renewed
        let credentials = device.store.appendingPathComponent("secure/credentials")
        let before = try Data(contentsOf: credentials)
        let other = try await device.run(["step-up", "--max-age", "300", "--sim-advance", "600"], input: "bob@example.com\n")
        #expect(other.status == 1)
        #expect(other.stderr.contains("another account's"), "\(other.stderr)")
        #expect(try Data(contentsOf: credentials) == before)
        let same = try await device.run(["step-up", "--max-age", "300", "--sim-advance", "600"], input: "alice@example.com\n")
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("Stepped up: signed in"))
        let call = try await device.run(["call", "--sim-api-max-age", "300", "--sim-advance", "610"])
        #expect(call.status == 0, "\(call.stderr)")
        #expect(call.stdout.contains("HTTP 200"))
        let status = try await device.run(["status", "--sim-advance", "630"])
        #expect(status.stdout.contains("Signed in: "), "\(status.stdout)")
        #expect(status.stdout.contains("(less than a minute ago), acr urn:regstate:sim:password"))
        device.expectNoSecretsPrinted()
    }

    @Test("Without a session, step-up has nothing to step up (exit 3)")
    func noSession() async throws {
        let device = try CLIScenario()
        let run = try await device.run(["step-up", "--max-age", "60"])
        #expect(run.status == 3)
    }
}
