import Foundation
import RegState

/// The CLI's output rules on top of a ``Terminal``: events and results on stdout (as JSON lines with `--json`),
/// prompts and messages on stderr.
struct Console: Sendable {
    /// Where text goes.
    let terminal: any Terminal
    /// `--json`.
    let json: Bool

    /// One lettered event: its human line, or its JSON object.
    func event(_ event: RegStateEvent) {
        terminal.line(json ? String(decoding: EventText.json(event).serialized(), as: UTF8.self) : EventText.human(event))
    }

    /// A command's result for people: stdout in human mode, stderr with `--json` (where stdout holds only JSON).
    func result(_ text: String) {
        if json { terminal.note(text) } else { terminal.line(text) }
    }

    /// A JSON line on stdout (for `events --json`).
    func jsonLine(_ value: JSONValue) {
        terminal.line(String(decoding: value.serialized(), as: UTF8.self))
    }

    /// A message on stderr.
    func message(_ text: String) {
        terminal.note(text)
    }

    /// Asks `question` on stderr and reads one answer line, trimmed; `nil` at the end of input.
    func ask(_ question: String) async -> String? {
        terminal.writeError(question)
        let answer = await terminal.readLine()
        if answer == nil || !terminal.echoesInput { terminal.writeError("\n") }
        guard let answer else { return nil }
        return answer.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
