import Foundation
import RegStateTestSupport
import Testing
@testable import regstate

/// The exit statuses are documented once (``ExitStatusTable``) and shown the same way everywhere: each command's
/// `--help`, the tool's `--help` and the CLI guide (docs/CLI.md).
@Suite("CLI: exit statuses as documented")
struct ExitStatusDocumentationTests {
    @Test("each command's --help states its table", arguments: Command.allCases)
    func commandHelp(_ command: Command) async throws {
        let result = try await CLIProcess.run([command.rawValue, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(ExitStatusTable.line(for: command)))
        #expect(result.stdout.components(separatedBy: "Exit status").count == 2, "one exit-status statement only")
    }

    @Test("the tool's --help and the CLI guide show the same table, one line per command")
    func toolHelpAndReadme() async throws {
        let help = try await CLIProcess.run(["--help"])
        let guide = try String(contentsOf: try #require(BuiltProducts.packageRoot).appendingPathComponent("docs/CLI.md"),
                               encoding: .utf8)
        for line in ExitStatusTable.lines {
            #expect(help.stdout.contains(line), "--help lacks: \(line)")
            #expect(guide.contains(line), "docs/CLI.md lacks: \(line)")
        }
    }

    @Test("every command exits 2 on bad usage, with what was wrong and how to see the usage", arguments: Command.allCases)
    func badUsage(_ command: Command) async throws {
        #expect(ExitStatusTable.rows(for: command).contains { $0.status == 2 })
        let result = try await CLIProcess.run([command.rawValue, "--no-such-option"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown option") || result.stderr.contains("--no-such-option"), "\(result.stderr)")
        #expect(result.stderr.contains("For the commands and options, run: "))
    }

    @Test("logout: 0 logged out, 3 nothing to log out, 1 refused offline (nothing changed)")
    func logoutStatuses() async throws {
        let scenario = try CLIScenario()
        try await scenario.registerSocially()
        #expect(try await scenario.run(["logout", "--sim-offline"]).status == 1)
        #expect(try await scenario.run(["status"]).status == 0, "a refused logout changed nothing")
        #expect(try await scenario.run(["logout"]).status == 0)
        #expect(try await scenario.run(["logout"]).status == 3)
    }

    @Test("clear-state: 0 with a session, without one, and offline (the backend's answer is printed)")
    func clearStateStatuses() async throws {
        let scenario = try CLIScenario()
        try await scenario.registerSocially()
        let offline = try await scenario.run(["clear-state", "--sim-offline"])
        #expect(offline.status == 0)
        #expect(offline.stdout.contains("Backend:"))
        #expect(try await scenario.run(["clear-state"]).status == 0)
        #expect(try await scenario.run(["status"]).status == 3)
    }
}

/// A store that cannot be used is an error of the run, not bad usage: exit 1 with the reason (issue 43).
@Suite("CLI: a store that cannot be used")
struct UnusableStoreTests {
    static let commands: [[String]] = [
        ["clear-state"], ["events"], ["events", "--json"], ["status"], ["logout"], ["notify-transient", "no-internet"],
        ["walkthrough"], ["ongoing-access", "fetch"],
    ]

    @Test("Given --store naming a regular file, when a command runs, then it exits 1 (not 2) with the reason, and no usage hint",
          arguments: commands)
    func unusableStoreExitsOne(_ arguments: [String]) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-not-a-dir-\(UUID().uuidString)")
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await CLIProcess.run(arguments + ["--store", file.path])
        #expect(result.status == 1, "\(arguments): stderr: \(result.stderr)")
        #expect(result.stderr.contains("cannot use store directory \(file.path)"), "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("For the commands and options, run: "), "not a usage error: \(result.stderr)")
        #expect(ExitStatusTable.rows(for: Command(rawValue: arguments[0]) ?? .walkthrough).contains { $0.status == 1 })
    }

    @Test("Given --store under a file (/dev/null/regstate), then exit 1 with one line saying why, nothing on stdout")
    func storeUnderAFile() async throws {
        let result = try await CLIProcess.run(["--store", "/dev/null/regstate"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("regstate: cannot use store directory /dev/null/regstate") == true,
                "\(result.stderr)")
    }
}
