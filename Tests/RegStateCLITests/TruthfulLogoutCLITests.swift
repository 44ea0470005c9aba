import Foundation
import RegState
import RegStateTestSupport
import Testing

/// Issue 20, CLI polish, with the built binary: every logout form says only what happened (no revocation claimed
/// without a refresh token, no browser session ended where the login left none), and the walkthrough offers email
/// only where the provider's discovery allows it.
@Suite("CLI says only what happened")
struct TruthfulLogoutCLITests {
    @Test("Given --platform web (Active A, no refresh token), logout says nothing was revoked and nothing about a browser session; --json too")
    func webLogout() async throws {
        let device = try CLIScenario()
        let start = try await device.run(["--platform", "web"])
        #expect(start.status == 0, "stderr: \(start.stderr)")
        #expect(start.lines.contains("Active A (non-native token, online)"))

        let human = try await device.run(["logout", "--platform", "web"])
        #expect(human.status == 0, "stderr: \(human.stderr)")
        #expect(human.stdout.contains(
            "Logged out: local credentials were cleared; no refresh token was stored, so there was nothing to revoke."))
        for text in [human.stdout, human.stderr] {
            #expect(!text.contains("revoked the refresh token"))
            #expect(!text.contains("browser session") && !text.contains("end-session"), "claimed: \(text)")
        }

        let json = try await device.run(["logout", "--platform", "web", "--json"])
        #expect(json.status == 0)
        #expect(SessionCommandTests.logoutLine(json.stdout) == ["result": "logout", "loggedOut": true,
                                                                "revocation": "nothingToRevoke"])
        #expect(!json.stderr.contains("browser session"))
    }

    @Test("Given a passwordless session, logout revokes the refresh token and claims no browser session (there was none)")
    func passwordlessLogout() async throws {
        let device = try CLIScenario()
        _ = try await device.registerByEmail()

        let done = try await device.run(["logout", "--json"])
        #expect(done.status == 0, "stderr: \(done.stderr)")
        #expect(SessionCommandTests.logoutLine(done.stdout) == ["result": "logout", "loggedOut": true,
                                                                "revocation": "revoked"])
        #expect(done.stderr.contains("Logged out: the provider revoked the refresh token"))
        #expect(!done.stderr.contains("browser session") && !done.stderr.contains("end-session"), "\(done.stderr)")
        device.expectNoSecretsPrinted()
    }

    @Test("Given no session, logout says so and --json carries a line with loggedOut false and reason no_session")
    func nothingToLogOut() async throws {
        let device = try CLIScenario()
        let human = try await device.run(["logout"])
        #expect(human.status == 3)
        #expect(human.stderr.contains("Nothing to log out: no session is active"))
        #expect(!human.stdout.contains("Logged out"))
        let json = try await device.run(["logout", "--json"])
        #expect(json.status == 3)
        #expect(SessionCommandTests.logoutLine(json.stdout) == ["result": "logout", "loggedOut": false,
                                                                "reason": "no_session"])
    }

    @Test("Given a fresh store, clear-state claims no removal; after a registration it lists what it removed")
    func clearStateClaimsOnlyRemovals() async throws {
        let device = try CLIScenario()
        let empty = try await device.run(["clear-state"])
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("Nothing to remove: no credentials were stored and the journal was empty."))
        #expect(!empty.stdout.contains("Removed:"))
        try await device.registerSocially()
        let cleared = try await device.run(["clear-state"])
        #expect(cleared.stdout.contains("Removed: credentials, installation_id, journal."), "\(cleared.stdout)")
    }

    @Test("Given the simulator, the walkthrough offers 2 Email and says nothing about it missing")
    func simulatorOffersEmail() async throws {
        let device = try CLIScenario()
        let result = try await device.run([], input: "q\n")
        #expect(result.status == 3)
        #expect(result.stderr.contains("  2  Email (one-time code)"))
        #expect(result.stderr.contains("Choose 1, 2, 3, 4, q: "))
        #expect(!result.stderr.contains("is not offered"))
    }
}
