import Foundation
import Testing
@testable import regstate
import RegState
import RegStateSimulator

/// A terminal whose answers come from a script that sees what was written to stderr so far.
///
/// `@unchecked Sendable` is safe: `stdout`, `stderr` and `asked` are only touched while `lock` is held.
final class ScriptedTerminal: Terminal, @unchecked Sendable {
    private let lock = NSLock()
    private var stdoutText = ""
    private var stderrText = ""
    private var asked = 0
    private let respond: @Sendable (_ question: Int, _ stderr: String) async -> String?

    let echoesInput = false

    /// `respond` gets the 0-based number of the question and stderr so far; `nil` ends the input.
    init(respond: @escaping @Sendable (_ question: Int, _ stderr: String) async -> String?) {
        self.respond = respond
    }

    var stdout: String { lock.withLock { stdoutText } }
    var stderr: String { lock.withLock { stderrText } }

    func readLine() async -> String? {
        let (question, text) = lock.withLock { () -> (Int, String) in
            defer { asked += 1 }
            return (asked, stderrText)
        }
        return await respond(question, text)
    }

    func write(_ text: String) { lock.withLock { stdoutText += text } }
    func writeError(_ text: String) { lock.withLock { stderrText += text } }
}

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
