import Foundation
import RegState
import Testing

/// Switching accounts in the CLI (issue 20): logout ends the provider's browser session, and the walkthrough offers
/// "use another account" (`prompt=login`).
@Suite("CLI switching accounts")
struct AccountSwitchCLITests {
    @Test("Given a session, logout ends the provider's browser session (never printing the ID token); --json says ended")
    func logoutEndsProviderSession() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let world = device.store.appendingPathComponent("simulator/simulator-world.json")
        #expect(String(decoding: try Data(contentsOf: world), as: UTF8.self).contains("browserSession"))
        let done = try await device.run(["logout", "--json"])
        #expect(done.status == 0)
        #expect(done.stderr.contains("The simulated browser opened the provider's end-session URL: it is signed out there"), "stderr: \(done.stderr)")
        #expect(done.stdout.contains("\"endSession\":\"ended\""), "stdout: \(done.stdout)")
        #expect(!String(decoding: try Data(contentsOf: world), as: UTF8.self).contains("browserSession"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given a logged-out user, the walkthrough offers 3 'use another account' and registers the other user")
    func useAnotherAccount() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        #expect(try await device.run(["logout"]).status == 0)
        let other = try await device.run([], input: "3\nbob@example.com\n1\n")
        #expect(other.status == 0, "walkthrough failed: \(other.stderr)")
        #expect(other.stderr.contains("3  Social login, use another account"))
        #expect(other.stdout.contains("Active H"))
        #expect(other.stdout.contains("b***@example.com"))
        device.expectNoSecretsPrinted()
    }
}
