#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
        Self.write(text, to: STDOUT_FILENO)
    }

    func writeError(_ text: String) {
        Self.write(text, to: STDERR_FILENO)
    }

    /// Writes all of `text` with `write(2)` (what `FileHandle.write` does, without loading `FileHandle`), retrying
    /// after a signal; a closed pipe ends the write.
    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

extension Terminal {
    /// Writes `text` and a newline to standard output.
    func line(_ text: String) { write(text + "\n") }

    /// Writes `text` and a newline to standard error.
    func note(_ text: String) { writeError(text + "\n") }
}

/// `write(2)`, named apart from the terminal's own `write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
