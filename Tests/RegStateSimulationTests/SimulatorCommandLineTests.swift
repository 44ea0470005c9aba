import Foundation
import Testing

/// `regstate-sim`'s command line as a person meets it: `--help`, a mistyped option, and the summary's figures.
@Suite("regstate-sim's command line")
struct SimulatorCommandLineTests {
    @Test("Given --help, when it runs, then it lists every option and exits 0")
    func helpListsTheOptions() async throws {
        let outcome = try await SimulationProcess.run(["--help"])
        #expect(outcome.status == 0)
        let text = outcome.lines.joined(separator: "\n")
        for option in ["--seed", "--seeds", "--time-box", "--start", "--steps", "--processes", "--world", "--disk",
                       "--skip", "--faults-off", "--trace", "--quiet", "--shrink", "--help", "together", "keychain"] {
            #expect(text.contains(option), "--help does not mention \(option)")
        }
    }

    @Test("Given an unknown option or a bad value, when it runs, then the error names it and the exit status is 64",
          arguments: [(["--sede", "4"], "unknown option --sede"), (["--seed", "4", "--world", "moon"], "--world moon"),
                      (["--steps"], "--steps needs a value"), (["--quiet"], "--seed N")])
    func usageErrorsNameTheArgument(arguments: [String], named: String) async throws {
        let outcome = try await SimulationProcess.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains(named), "\(outcome.errors)")
        #expect(outcome.errors.contains("regstate-sim --help"))
    }

    @Test("Given a life whose clock jumps back (seed 42), when it runs, then its virtual time is the time it lived through, not negative")
    func virtualTimeIsLivedTime() async throws {
        let outcome = try await SimulationProcess.run(["--seed", "42", "--trace"])
        #expect(outcome.lines.contains { $0.contains("clock jumps back") }, "seed 42 no longer sets the clock back")
        let fields = outcome.summary.split(separator: " ")
        let hours = try #require(fields.firstIndex(of: "virtual-hours").flatMap { Double(fields[$0 + 1]) })
        #expect(hours > 0, "\(outcome.summary)")
    }
}
