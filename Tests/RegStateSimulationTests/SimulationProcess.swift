import Foundation
import RegStateTestSupport
import Testing

/// Runs the built `regstate-sim` (the deterministic scheduler takes over every task of its process, so the runs
/// happen in a child process, not inside the test runner).
struct SimulationProcess {
    var status: Int32
    var lines: [String]

    /// The per-seed lines (the summary line carries wall-clock figures, which differ between runs).
    var seedLines: [String] { lines.filter { !$0.hasPrefix("runs ") } }
    /// The summary line.
    var summary: String { lines.last { $0.hasPrefix("runs ") } ?? "" }

    static func run(_ arguments: [String]) throws -> SimulationProcess {
        let binary = try #require(BuiltProducts.executable("regstate-sim"), "regstate-sim not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return SimulationProcess(status: process.terminationStatus, lines: text.split(separator: "\n").map(String.init))
    }
}
