import Foundation
@testable import regstate

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
