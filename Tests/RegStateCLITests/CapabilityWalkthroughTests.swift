import Foundation
import Testing
@testable import regstate
import RegState
import RegStateSimulator

/// The walkthrough's menu follows the provider's discovery (issue 20): against a provider whose discovery lists no
/// one-time-code grant (as django-oauth-toolkit), email is not offered and a line says why.
@Suite("CLI capabilities from discovery")
struct CapabilityWalkthroughTests {
    @Test("Given --issuer a provider without passwordless, the menu has no 2 Email, says why, and 2 is not accepted")
    func noEmailWhereDiscoveryRulesItOut() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-inproc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        var configuration = SimulatorConfiguration()
        configuration.offersPasswordless = false
        let simulator = try Simulator(configuration: configuration)
        let answers = ["2", "q"]
        let terminal = ScriptedTerminal { question, _ in question < answers.count ? answers[question] : nil }
        let status = await CLI.run(
            arguments: ["--issuer", "https://idp.regstate.sim", "--client-id", "regstate-cli", "--store", store.path],
            environment: [:], terminal: terminal, providerTransport: simulator.transport)
        #expect(status == 3, "\(terminal.stderr)")
        #expect(!terminal.stderr.contains("2  Email"))
        #expect(terminal.stderr.contains("  1  Social login\n  3  Social login, use another account\n  4  Sign in on another device\n  q  Quit"))
        #expect(terminal.stderr.contains("Email (one-time code) is not offered: this provider's discovery does not"
                                         + " list the one-time-code grant"))
        #expect(terminal.stderr.contains("Please answer 1, 3, 4, q."))
        #expect(await simulator.latestCode(for: "alice@example.com") == nil)
    }

    @Test("Given --issuer the same provider with passwordless, the menu offers 2 Email")
    func emailWhereDiscoveryListsIt() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-inproc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        let simulator = try Simulator()
        let terminal = ScriptedTerminal { question, _ in question == 0 ? "q" : nil }
        let status = await CLI.run(
            arguments: ["--issuer", "https://idp.regstate.sim", "--client-id", "regstate-cli", "--store", store.path],
            environment: [:], terminal: terminal, providerTransport: simulator.transport)
        #expect(status == 3)
        #expect(terminal.stderr.contains("  2  Email (one-time code)"))
        #expect(!terminal.stderr.contains("is not offered"))
    }
}
