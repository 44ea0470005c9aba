import Foundation
import Testing
@testable import regstate
import RegState
import RegStateSimulator

/// The menus in-process through the ``Terminal`` protocol, including the real-provider path (`--issuer`), here
/// routed to a simulator instead of the network.
@Suite("CLI in-process")
struct InProcessWalkthroughTests {
    @Test("Given --issuer, when the walkthrough prints the authorization URL, then the pasted redirect completes Active H")
    func realProviderPathWithPastedRedirect() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-inproc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        let simulator = try Simulator()
        let terminal = ScriptedTerminal { question, stderr in
            switch question {
            case 0: return "1"
            case 1:
                let line = stderr.split(separator: "\n").first { $0.hasPrefix("https://idp.regstate.sim/authorize?") }
                guard let line, let url = URL(string: String(line)) else { return nil }
                return try? await simulator.authorize(url, as: "alice@example.com").absoluteString
            case 2: return "1"
            default: return nil
            }
        }
        let status = await CLI.run(
            arguments: ["--issuer", "https://idp.regstate.sim", "--client-id", "regstate-cli", "--store", store.path],
            environment: [:], terminal: terminal, providerTransport: simulator.transport)
        #expect(status == 0, "\(terminal.stderr)")
        #expect(terminal.stdout.split(separator: "\n").count == 3)
        #expect(terminal.stdout.contains("Registration Required D\nAwaiting Confirmation G"))
        #expect(terminal.stdout.contains("Active H (social"))
        #expect(terminal.stderr.contains("the backend steps are skipped"))
        #expect(terminal.stderr.contains("\nhttps://idp.regstate.sim/authorize?"))
        #expect(!terminal.stderr.contains("code="), "the redirect (with its code) must not be echoed")
    }

    @Test("Given an unknown answer, when the menu asks again, then the next valid answer is taken")
    func invalidAnswerIsAskedAgain() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-inproc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        let answers = ["social", "q"]
        let terminal = ScriptedTerminal { question, _ in question < answers.count ? answers[question] : nil }
        let status = await CLI.run(arguments: ["--store", store.path], environment: [:], terminal: terminal)
        #expect(status == 3)
        #expect(terminal.stderr.contains("Please answer 1, 2, q."))
        #expect(terminal.stdout == "Registration Required D\n")
    }
}
