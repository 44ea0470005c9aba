import Foundation

/// The terminal as the CLI sees it: lines in, text out on two channels. A protocol so menus run in-process in tests.
protocol Terminal: Sendable {
    /// The next line of input without its newline, or `nil` at the end of input.
    func readLine() async -> String?
    /// Writes `text` to standard output (lettered events, command results).
    func write(_ text: String)
    /// Writes `text` to standard error (prompts, menus and messages).
    func writeError(_ text: String)
    /// Whether a person types the input (a TTY echoes the answer and its newline); with a pipe the CLI ends the
    /// prompt's line itself, without echoing the answer (which may hold a redirect's code).
    var echoesInput: Bool { get }
}

/// The process's standard input, output and error.
///
/// Output is written straight to the file descriptors (no buffering), so events and prompts appear in the order
/// they were written even when stdout and stderr are pipes.
struct StandardTerminal: Terminal {
    /// Whether standard input is a terminal.
    let echoesInput = isatty(STDIN_FILENO) == 1

    /// Reads on a dedicated thread: a blocking `read` must not hold one of the few cooperative threads.
    func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Swift.readLine(strippingNewline: true))
            }
            thread.name = "regstate.stdin"
            thread.start()
        }
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

extension Terminal {
    /// Writes `text` and a newline to standard output.
    func line(_ text: String) { write(text + "\n") }

    /// Writes `text` and a newline to standard error.
    func note(_ text: String) { writeError(text + "\n") }
}
