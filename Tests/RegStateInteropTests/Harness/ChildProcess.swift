#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RegState

/// Runs a helper program (the provider's scripts, `python3`) to completion with a deadline.
///
/// Output goes to temporary files rather than pipes, so a chatty child can never block on a full pipe, and a child
/// that outlives its deadline is terminated: no interop test can hang on a script.
enum ChildProcess {
    /// What a finished child left behind.
    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Closes descriptors 3 and up, then runs `"$0" "$@"`.
    ///
    /// The `2>/dev/null` is on each `exec`, not on the loop: bash keeps a loop's redirected stderr in a spare
    /// descriptor while the loop runs, the loop would close that one too, and the child would inherit a closed stderr.
    private static let closeInheritedDescriptors = """
        for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-" 2>/dev/null; fi; done
        exec "$0" "$@"
        """

    /// Runs `executable` with `arguments` and waits at most `timeout`.
    ///
    /// - Parameters:
    ///   - environment: variables added to (or overriding) this process's environment.
    ///   - passingStderr: the child's standard error goes to this process's standard error as it is written (where
    ///     the test output a person watches goes), instead of into ``Output/stderr``.
    /// - Throws: ``InteropError/timedOut(_:)`` when the deadline passes (the child is killed), or the launch error.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: Duration, passingStderr: Bool = false) async throws -> Output {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("interop-child-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        // Through bash, which first closes every inherited descriptor above 2: Foundation's Process on Linux notices
        // the end of a child through a descriptor the child inherits, so a daemon the child leaves behind (start.sh
        // leaves the provider) would keep the child "running" forever.
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", Self.closeInheritedDescriptors, executable] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = passingStderr ? FileHandle.standardError : err
        let finished = AsyncSignal()
        process.terminationHandler = { _ in finished.fire() }
        try process.run()
        let pid = process.processIdentifier
        let completed = await finished.wait(timeout: timeout)
        if !completed {
            kill(pid, SIGKILL)
            _ = await finished.wait(timeout: .seconds(5))
            throw InteropError.timedOut("\(URL(fileURLWithPath: executable).lastPathComponent) after \(timeout)")
        }
        let stdout = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return Output(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

/// A one-shot flag that async code can wait for with a deadline (a process's termination handler sets it).
final class AsyncSignal: Sendable {
    private let fired = LockedValue(false)

    /// Fires the signal.
    func fire() {
        fired.withLock { $0 = true }
    }

    /// Whether the signal fired.
    var hasFired: Bool { fired.withLock { $0 } }

    /// Waits until the signal fires (`true`) or `timeout` passes (`false`), looking every 20 ms.
    func wait(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !hasFired {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}

/// Why the interop harness could not do its part.
enum InteropError: Error, CustomStringConvertible {
    /// A helper process or a wait ran out of time.
    case timedOut(String)
    /// The provider could not be started; the text is start.sh's own explanation.
    case providerUnavailable(String)
    /// A helper script failed.
    case scriptFailed(String)

    var description: String {
        switch self {
        case .timedOut(let what): "timed out: \(what)"
        case .providerUnavailable(let why): "the interop provider could not be started: \(why)"
        case .scriptFailed(let why): "helper script failed: \(why)"
        }
    }
}
