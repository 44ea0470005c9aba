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
        #expect(terminal.stderr.contains("Please answer 1, 2, 3, 4, q."))
        #expect(terminal.stdout == "Registration Required D\n")
    }

    @Test("Given a wrong code, then r (resend), the old code and the new one: F wrong, F superseded, then G and Active H")
    func passwordlessSecondTries() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-inproc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        let codes = LockedCodes()
        let terminal = ScriptedTerminal { question, stderr in
            let inbox = stderr.split(separator: "\n").filter { $0.contains("your RegState code is ") }
                .map { String($0.suffix(6)) }
            switch question {
            case 0: return "2"
            case 1: return "dave@example.com"
            case 2: codes.first = inbox.last; return "999999x"
            case 3: return "r"
            case 4: return codes.first
            case 5: return inbox.last
            case 6: return "1"
            default: return nil
            }
        }
        let status = await CLI.run(arguments: ["--store", store.path], environment: [:], terminal: terminal)
        #expect(status == 0, "\(terminal.stderr)")
        let lines = terminal.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.first == "Registration Required D")
        #expect(lines[1].hasPrefix("Error F") && lines[1].contains("not right"))
        #expect(lines[2].hasPrefix("Error F") && lines[2].contains("replaced by the newer one"))
        #expect(lines[3].hasPrefix("Awaiting Confirmation G"))
        #expect(lines[4].hasPrefix("Active H (passwordless"))
        #expect(terminal.stderr.split(separator: "\n").filter { $0.contains("your RegState code is ") }.count == 2)
    }
}

/// The first code the scripted user saw, kept across answers.
private final class LockedCodes: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    var first: String? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
