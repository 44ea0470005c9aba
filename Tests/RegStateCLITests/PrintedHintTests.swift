import Foundation
import RegStateTestSupport
import Testing
@testable import regstate

/// Every command the CLI prints after "run: " is typed back into a shell as printed, and works: it runs the tool
/// (no "command not found", no usage error) and exits with a status its command's table allows. Each run's own
/// status is checked against ``ExitStatusTable`` too.
@Suite("CLI: printed hints run as printed")
struct PrintedHintTests {
    /// One device: a store in a directory of its own, which is also the working directory (not the package root).
    final class Device {
        let directory: URL
        var store: String { directory.appendingPathComponent("store").path }

        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("regstate-hints-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    /// How the tool is typed in a test: by name on the `PATH`, or by its absolute path.
    enum Typing: String, CaseIterable, CustomTestStringConvertible {
        case onPath
        case byPath

        var testDescription: String { rawValue }

        func tool() throws -> String {
            switch self {
            case .onPath: "regstate"
            case .byPath: ShellWord.quoted(try #require(BuiltProducts.executable("regstate")).path)
            }
        }

        var pathPrefix: String? {
            self == .onPath ? BuiltProducts.executable("regstate")?.deletingLastPathComponent().path : nil
        }
    }

    /// Runs `words` (after the tool) for `command`, checks its status against the table and returns the result.
    static func run(_ typing: Typing, _ device: Device, _ command: Command, _ words: String,
                    input: String = "") async throws -> CLIResult {
        let line = try typing.tool() + " " + words
        let result = try await CLIProcess.run(shell: line, input: input, in: device.directory, pathPrefix: typing.pathPrefix)
        let allowed = ExitStatusTable.rows(for: command).map(\.status)
        #expect(allowed.contains(result.status), "\(line) exited \(result.status), not in its table \(allowed): \(result.stderr)")
        return result
    }

    /// The commands printed after "run: " in `result`'s standard error.
    static func hints(in result: CLIResult) -> [String] {
        result.stderr.split(separator: "\n").compactMap { line in
            line.range(of: "run: ").map { String(line[$0.upperBound...]) }
        }
    }

    /// Types `hint` back as printed; it must start with the tool as this run typed it, run it, and not be refused as
    /// bad usage.
    static func follow(_ hint: String, _ typing: Typing, _ device: Device, input: String = "") async throws -> CLIResult {
        #expect(hint.hasPrefix(try typing.tool() + " "), "hint '\(hint)' does not start with how the tool was typed")
        let result = try await CLIProcess.run(shell: hint, input: input, in: device.directory, pathPrefix: typing.pathPrefix)
        #expect(result.status != 127, "'\(hint)': command not found")
        #expect(!result.stderr.contains("regstate: unknown") && !result.stderr.contains("regstate: option"),
                "'\(hint)' was refused as bad usage: \(result.stderr)")
        return result
    }

    @Test("after the walkthrough: the status hint shows the same session", arguments: Typing.allCases)
    func walkthroughHint(_ typing: Typing) async throws {
        let device = try Device()
        let registered = try await Self.run(typing, device, .walkthrough, "--store \(device.store)",
                                            input: "1\nalice@example.com\n1\n")
        #expect(registered.status == 0)
        let hint = try #require(Self.hints(in: registered).first)
        #expect(hint == (try typing.tool()) + " status --store \(device.store)")
        let status = try await Self.follow(hint, typing, device)
        #expect(status.status == 0)
        #expect(status.stdout.contains("State: Active B"))
    }

    @Test("refusals: each says what to do, and its command runs as printed", arguments: Typing.allCases)
    func refusalHints(_ typing: Typing) async throws {
        let device = try Device()
        let store = "--store \(device.store)"
        // No session: logout, call, devices and notify-transient point at the walkthrough (or, in host mode, update-token).
        for (command, words) in [(Command.logout, "logout"), (.call, "call"), (.devices, "devices"),
                                 (.notifyTransient, "notify-transient no-internet")] {
            let refused = try await Self.run(typing, device, command, "\(words) \(store)")
            #expect(refused.status == 3, "\(words): \(refused.stderr)")
            let hint = try #require(Self.hints(in: refused).first, "\(words) printed no hint: \(refused.stderr)")
            let followed = try await Self.follow(hint, typing, device, input: "q\n")
            #expect([0, 1, 2, 3].contains(followed.status))
        }
        // Bad usage points at --help.
        let usage = try await Self.run(typing, device, .walkthrough, "frobnicate")
        #expect(usage.status == 2)
        let help = try await Self.follow(try #require(Self.hints(in: usage).first), typing, device)
        #expect(help.status == 0 && help.stdout.contains("Exit status"))
        // An ongoing-access fetch without a token points at authorize.
        let fetch = try await Self.run(typing, device, .ongoingAccess, "ongoing-access fetch \(store)")
        #expect(fetch.status == 3)
        let authorize = try await Self.follow(try #require(Self.hints(in: fetch).first), typing, device, input: "n\n")
        #expect(ExitStatusTable.rows(for: .ongoingAccess).map(\.status).contains(authorize.status))
        // An unknown device, with a session: the hint lists the devices.
        _ = try await Self.run(typing, device, .walkthrough, store, input: "1\nalice@example.com\n1\n")
        let unknown = try await Self.run(typing, device, .devices, "devices remove no-such-device \(store)")
        #expect(unknown.status == 1)
        let list = try await Self.follow(try #require(Self.hints(in: unknown).first), typing, device)
        #expect(list.status == 0)
    }

    /// Social sign-in on the simulator refuses the address before anything is sent (back at D: quitting exits 3);
    /// the passwordless start is refused by the engine (Error F: quitting exits 1).
    @Test("an email address that cannot be used gets the reason and what to do", arguments: [
        ("1\nalice\nq\n", "it has no @", Int32(3)),
        ("1\nalice@example\nq\n", "the domain after the @ has no dot (like example.com)", 3),
        ("2\nbob@\nq\n", "nothing comes after the @", 1),
        ("2\nbob,smith@example.com\nq\n", "it contains ,", 1),
    ])
    func invalidEmailReason(_ input: String, _ reason: String, _ status: Int32) async throws {
        let device = try Device()
        let result = try await Self.run(.byPath, device, .walkthrough, "--store \(device.store)", input: input)
        #expect(result.status == status)
        #expect(result.stderr.contains("That email address cannot be used: \(reason)."), "\(result.stderr)")
        #expect(result.stderr.contains("Choose the same option again"))
    }

    @Test("the invocation a hint names follows how the tool was started")
    func invocationDetection() throws {
        let root = try #require(BuiltProducts.packageRoot).path
        #expect(Invocation.detect(argument0: "regstate", currentDirectory: "/tmp").tool == "regstate")
        // swift run starts the product by its path under .build, from the package root.
        #expect(Invocation.detect(argument0: ".build/x86_64-unknown-linux-gnu/debug/regstate", currentDirectory: root).tool
                == "swift run regstate")
        #expect(Invocation.detect(argument0: root + "/.build/debug/regstate", currentDirectory: root).tool
                == "swift run regstate")
        #expect(Invocation.detect(argument0: "/opt/my tools/regstate", currentDirectory: "/tmp").tool
                == "'/opt/my tools/regstate'")
        #expect(Invocation.detect(argument0: "./regstate", currentDirectory: "/tmp").tool == "./regstate")
        var options = try CLIOptions.parse(["--store", "/tmp/a b", "--platform", "web"], environment: [:])
        options.invocation = Invocation(tool: "swift run regstate")
        #expect(options.typed("status") == "swift run regstate status --store '/tmp/a b' --platform web")
    }
}
