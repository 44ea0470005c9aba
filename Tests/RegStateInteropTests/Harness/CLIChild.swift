import Foundation
import RegStateTestSupport
import RegState
import Testing

/// One run of the built `regstate` binary, driven interactively: stdin is a pipe the test writes answers to while
/// it reads stdout (lettered events) and stderr (prompts, the authorization URL) as they come.
final class CLIChild: Sendable {
    /// How long one run, or one wait for output, may take.
    static let timeout: Duration = .seconds(60)

    private let process: LockedValue<Process>
    private let input: FileHandle
    private let pid: Int32
    private let stdout = OutputCollector()
    private let stderr = OutputCollector()
    private let exited = AsyncSignal()

    /// Starts `regstate arguments…`.
    ///
    /// - Throws: when the binary is missing or cannot be launched.
    init(_ arguments: [String]) throws {
        let binary = try #require(BuiltProducts.executable("regstate"), "regstate not found next to the tests or in .build/debug")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["REGSTATE_HOME"] = nil
        process.environment = environment
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let exited = self.exited
        process.terminationHandler = { _ in exited.fire() }
        try process.run()
        pid = process.processIdentifier
        input = inputPipe.fileHandleForWriting
        self.process = LockedValue(process)
        stdout.drain(outputPipe.fileHandleForReading)
        stderr.drain(errorPipe.fileHandleForReading)
    }

    /// Writes one line to the child's standard input.
    func send(line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Waits until a line of stderr satisfies `predicate` and returns it.
    ///
    /// - Throws: ``InteropError/timedOut(_:)`` (the child is killed) when none comes within ``timeout``.
    func stderrLine(where predicate: @escaping @Sendable (String) -> Bool, what: String) async throws -> String {
        let deadline = ContinuousClock.now + Self.timeout
        while ContinuousClock.now < deadline {
            if let line = stderr.text.split(separator: "\n").map(String.init).first(where: predicate) { return line }
            if exited.hasFired, stderr.isFinished { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        kill()
        throw InteropError.timedOut("regstate never printed \(what); stderr: \(stderr.text.suffix(2_000))")
    }

    /// Closes stdin, waits for the exit (killing the child after ``timeout``) and returns status and output.
    func finish() async throws -> (status: Int32, stdout: String, stderr: String) {
        try? input.close()
        guard await exited.wait(timeout: Self.timeout) else {
            kill()
            throw InteropError.timedOut("regstate did not exit; stderr: \(stderr.text.suffix(2_000))")
        }
        _ = await stdout.waitForEnd(timeout: .seconds(10))
        _ = await stderr.waitForEnd(timeout: .seconds(10))
        let status = process.withLock { $0.terminationStatus }
        return (status, stdout.text, stderr.text)
    }

    private func kill() {
        _ = Foundation.kill(pid, SIGKILL)
    }

    /// Runs `regstate arguments…` with no input and returns what it produced.
    static func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await CLIChild(arguments).finish()
    }

}

/// Collects one output stream of a child on a dedicated thread.
final class OutputCollector: Sendable {
    private let state = LockedValue((data: Data(), finished: false))

    /// The text so far.
    var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }
    /// Whether the stream has ended.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Reads `handle` until its end.
    func drain(_ handle: FileHandle) {
        let state = self.state
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                state.withLock { $0.data.append(chunk) }
            }
            state.withLock { $0.finished = true }
        }.start()
    }

    /// Waits until the stream ends (`true`) or `timeout` passes.
    func waitForEnd(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !isFinished {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
