import Foundation
import RegStateTestSupport
import Testing

/// Bad usage exits 2 with one line on stderr; help exits 0.
@Suite("CLI usage")
struct UsageTests {
    static let badUsage: [[String]] = [
        ["frobnicate"],
        ["--frobnicate"],
        ["status", "extra"],
        ["--store"],
        ["--platform", "mac"],
        ["--sim-access-ttl", "soon"],
        ["--sim-access-ttl", "-5"],
        ["--sim-max-devices", "two"],
        ["--issuer", "https://login.example.com"],
        ["--issuer", "not a url", "--client-id", "x"],
        ["--client-id", "x"],
        ["--json=yes"],
        ["--scope", ""],
        ["--scope", "openid \"email\""],
        // A store that cannot be used (`--store /dev/null/regstate`) is not bad usage: exit 1 (UnusableStoreTests).
    ]

    @Test("Given bad usage, then one line on stderr, nothing on stdout, exit 2", arguments: badUsage)
    func badUsageExits2(_ arguments: [String]) async throws {
        let result = try await CLIProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("regstate: ") == true)
    }

    @Test("Given --help for the tool or a command, then usage on stdout and exit 0",
          arguments: [["--help"], ["-h"], ["walkthrough", "--help"], ["status", "--help"], ["events", "-h"],
                      ["logout", "--help"], ["clear-state", "--help"]])
    func helpExits0(_ arguments: [String]) async throws {
        let result = try await CLIProcess.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: regstate"))
        #expect(result.stdout.contains("--store DIR"))
        if let command = arguments.first, !command.hasPrefix("-") {
            #expect(result.stdout.contains("regstate \(command == "walkthrough" ? "[walkthrough]" : command)"))
        }
    }
}
