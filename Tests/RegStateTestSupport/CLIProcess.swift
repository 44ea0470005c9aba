import Foundation
import Testing

/// What one run of the built `regstate` binary produced.
public struct CLIResult: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything written to standard output.
    public var stdout: String
    /// Everything written to standard error.
    public var stderr: String

    /// Standard output's lines, without empty ones.
    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs the built `regstate` binary as a child process with piped standard streams, bounded by a timeout.
public final class CLIProcess {
    /// How long a run may take before it is killed and the test fails.
    public static let timeout: TimeInterval = 60

    private let process = Process()
    private let input = Pipe()
    private let output = StreamCollector()
    private let errors = StreamCollector()
    private let exited = StreamCollector()

    /// Starts `regstate arguments…`.
    public convenience init(_ arguments: [String]) throws {
        let binary = try #require(BuiltProducts.executable("regstate"), "regstate not found next to the tests or in .build/debug")
        try self.init(executable: binary, arguments: arguments, currentDirectory: nil, pathPrefix: nil)
    }

    /// Starts the command line `line` with `/bin/sh -c`, as a person types it: in `currentDirectory`, with
    /// `pathPrefix` (when given) in front of the `PATH`.
    public convenience init(shell line: String, currentDirectory: URL, pathPrefix: String? = nil) throws {
        try self.init(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", line],
                      currentDirectory: currentDirectory, pathPrefix: pathPrefix)
    }

    private init(executable: URL, arguments: [String], currentDirectory: URL?, pathPrefix: String?) throws {
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        var environment = ProcessInfo.processInfo.environment
        environment["REGSTATE_HOME"] = nil
        if let pathPrefix { environment["PATH"] = pathPrefix + ":" + (environment["PATH"] ?? "/usr/bin:/bin") }
        process.environment = environment
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = input
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let exited = self.exited
        process.terminationHandler = { _ in exited.finish() }
        try process.run()
        output.drain(outputPipe.fileHandleForReading)
        errors.drain(errorPipe.fileHandleForReading)
    }

    /// Writes `text` to the child's standard input.
    public func send(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Closes the child's standard input (end of input).
    public func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits until standard error contains `marker` and returns it all.
    public func waitForStderr(containing marker: String) async throws -> String {
        let text = await errors.wait(until: { $0.contains(marker) }, timeout: Self.timeout)
        guard text.contains(marker) else {
            process.terminate()
            Issue.record("timed out waiting for '\(marker)' on stderr: \(text)")
            throw CLITestError.timedOut
        }
        return text
    }

    /// Waits for the child to exit (killing it after ``timeout``) and for both output streams to end.
    public func finish() async throws -> CLIResult {
        closeInput()
        _ = await exited.wait(until: { _ in false }, timeout: Self.timeout)
        guard exited.isFinished else {
            process.terminate()
            Issue.record("regstate did not exit within \(Self.timeout) s; stderr: \(errors.text)")
            throw CLITestError.timedOut
        }
        let stdout = await output.wait(until: { _ in false }, timeout: Self.timeout)
        let stderr = await errors.wait(until: { _ in false }, timeout: Self.timeout)
        return CLIResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Kills the child at once (SIGKILL: no handler runs, as with `kill -9` or a crash) and returns what it had
    /// produced by then.
    public func sigkill() async throws -> CLIResult {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        return try await finish()
    }

    /// Runs `regstate arguments…` with `input` on standard input and returns what it produced.
    public static func run(_ arguments: [String], input: String = "") async throws -> CLIResult {
        let child = try CLIProcess(arguments)
        child.send(input)
        return try await child.finish()
    }

    /// Runs the command line `line` (see ``init(shell:currentDirectory:pathPrefix:)``) with `input` on standard input.
    public static func run(shell line: String, input: String = "", in currentDirectory: URL,
                           pathPrefix: String? = nil) async throws -> CLIResult {
        let child = try CLIProcess(shell: line, currentDirectory: currentDirectory, pathPrefix: pathPrefix)
        child.send(input)
        return try await child.finish()
    }

    /// Writes one line to the child's standard input.
    public func send(line: String) {
        send(line + "\n")
    }

    /// Waits until a line of standard error satisfies `predicate` and returns that line; `what` names it in the
    /// failure.
    public func stderrLine(where predicate: @escaping @Sendable (String) -> Bool, what: String) async throws -> String {
        try await line(of: errors, "stderr", where: predicate, what: what, timeout: Self.timeout)
    }

    /// Waits (at most `timeout` seconds) until a line of standard output satisfies `predicate` and returns that line;
    /// `what` names it in the failure. For children that answer on standard output line by line (a browser driver).
    public func stdoutLine(where predicate: @escaping @Sendable (String) -> Bool, what: String,
                           timeout: TimeInterval = CLIProcess.timeout) async throws -> String {
        try await line(of: output, "stdout", where: predicate, what: what, timeout: timeout)
    }

    /// Standard error so far (a child's own explanation when a wait failed).
    public var stderrSoFar: String { errors.text }

    private func line(of stream: StreamCollector, _ name: String, where predicate: @escaping @Sendable (String) -> Bool,
                      what: String, timeout: TimeInterval) async throws -> String {
        let lines: @Sendable (String) -> [String] = { $0.split(separator: "\n").map(String.init) }
        let text = await stream.wait(until: { lines($0).contains(where: predicate) }, timeout: timeout)
        guard let line = lines(text).first(where: predicate) else {
            process.terminate()
            Issue.record("the child never printed \(what); \(name): \(text.suffix(2_000)); stderr: \(errors.text.suffix(2_000))")
            throw CLITestError.timedOut
        }
        return line
    }
}

/// Why a CLI test gave up.
public enum CLITestError: Error {
    /// The child did not produce what was expected in time.
    case timedOut
}
