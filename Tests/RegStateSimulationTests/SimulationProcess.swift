import Foundation
import RegStateTestSupport
import Testing

/// Runs the built `regstate-sim` (the deterministic scheduler takes over every task of its process, so the runs
/// happen in a child process, not inside the test runner).
struct SimulationProcess {
    var status: Int32
    var lines: [String]
    /// What it wrote to standard error (usage errors).
    var errors: String = ""

    /// The per-seed lines (the summary line carries wall-clock figures, which differ between runs; the per-world
    /// lines before it are counts).
    var seedLines: [String] { lines.filter { !$0.hasPrefix("runs ") && !$0.hasPrefix("world ") } }
    /// The summary line.
    var summary: String { lines.last { $0.hasPrefix("runs ") } ?? "" }

    /// Runs `regstate-sim` with `arguments` and collects its output. The wait happens on a thread of its own, never on
    /// the concurrency pool: a run lasts up to the time box, and a blocked pool thread (there are as many as cores)
    /// would starve every other test running in parallel.
    static func run(_ arguments: [String]) async throws -> SimulationProcess {
        let binary = try #require(BuiltProducts.executable("regstate-sim"), "regstate-sim not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // regstate-sim writes a few lines at most to standard error, so it never blocks on it while stdout is read.
        let (text, errorText) = await withCheckedContinuation { (continuation: CheckedContinuation<(String, String), Never>) in
            let reader = Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                let errorData = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (String(decoding: data, as: UTF8.self), String(decoding: errorData, as: UTF8.self)))
            }
            reader.start()
        }
        return SimulationProcess(status: process.terminationStatus, lines: text.split(separator: "\n").map(String.init),
                                 errors: errorText)
    }
}
