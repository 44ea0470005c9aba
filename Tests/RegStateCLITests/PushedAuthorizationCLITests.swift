import Foundation
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport
import Testing
@testable import regstate

/// Pushed authorization requests (RFC 9126) through the CLI against the simulator: `--sim-par`, `--sim-par-ttl`,
/// `--par`.
@Suite("CLI: pushed authorization requests")
struct PushedAuthorizationCLITests {
    static let par = ["--sim-par", "required", "--sim-par-ttl", "5"]

    @Test("Given a pushed login begun by run 1, when run 2 starts after its request_uri died, then the same login is pushed again (a new push) and registers: H")
    func deadRequestURIBeginsAgain() async throws {
        let device = try CLIScenario()
        let first = try await device.run(Self.par, input: "1\n")
        #expect(first.status != 0)
        let url = try PendingLoginCLITests.pendingAuthorizationURL(in: device.store)
        let names = Set(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? [])
        #expect(names == ["client_id", "request_uri"])

        let second = try await device.run(Self.par + ["--sim-advance", "10"], input: "alice@example.com\n1\n")
        #expect(second.status == 0, "stderr: \(second.stderr)")
        #expect(second.stderr.contains("expired at"))
        #expect(second.stderr.contains("it was pushed again"))
        #expect(second.stdout.contains("Active H"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given --par required and a simulator without PAR, when the walkthrough signs in, then F pushed_authorization_unavailable, nothing pending")
    func requiredWithoutEndpoint() async throws {
        let device = try CLIScenario()
        let run = try await device.run(["--par", "required", "--json"], input: "1\nq\n")
        #expect(run.stdout.contains("pushed_authorization_unavailable"), "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: device.store.appendingPathComponent("secure/pending_login").path))
    }

    @Test("Given a bad --par or --sim-par value, then usage exits 2", arguments: [["--par", "sometimes"], ["--sim-par", "maybe"]])
    func badValues(arguments: [String]) async throws {
        let result = try await CLIProcess.run(arguments + ["status"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(arguments[0]))
    }
}

/// Issue 43, B: with `--loopback`, a pushed sign-in page that dies while the CLI waits is pushed again and the new URL
/// shown; the CLI does not wait ten minutes for a redirect that cannot come.
@Suite("CLI: a pushed page that expires while the loopback waits")
struct PushedPageExpiryCLITests {
    @Test("Given PAR with 1-second pages and --loopback, when the page dies before the redirect, then a new page is shown, and the first page's redirect still registers: H")
    func pushedAgainWhileWaiting() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-par-loopback-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        // The provider's clock stands still (its pages never die there); the CLI reads the 1-second expires_in on
        // its own clock, as it must, so only the CLI's deadline passes.
        var world = SimulatorConfiguration()
        world.pushedAuthorization = .required
        world.pushedRequestLifetime = 1
        let simulator = try Simulator(configuration: world, clock: ManualClock(start: Date()))
        let terminal = ScriptedTerminal { question, stderr in
            switch question {
            case 0: return "1"
            case 1: return stderr.contains("Confirm this profile?") ? "1" : nil
            default: return nil
            }
        }
        let authorize = "https://idp.regstate.sim/authorize?"
        let browser = Task.detached { () -> Int in
            let waiting = try await LoopbackCLITests.line(in: terminal, startingWith: "Waiting for the redirect on ")
            let first = try await LoopbackCLITests.line(in: terminal, startingWith: authorize)
            let redirect = try await simulator.authorize(try #require(URL(string: first)), as: "alice@example.com")
            // A liveness bound, not a speed: the page dies after 1 s, and the new one is printed then.
            var pages = Set<String>()
            for _ in 0..<600 where pages.count < 2 {
                pages = Set(terminal.stderr.split(separator: "\n").filter { $0.hasPrefix(authorize) }.map(String.init))
                if pages.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
            }
            // Finish with the first page's redirect either way, so the CLI ends (the user was signing in on it).
            let port = try #require(URL(string: String(waiting.dropFirst("Waiting for the redirect on ".count)
                .dropLast(" ...".count)))?.port.flatMap { UInt16(exactly: $0) })
            #expect(await RawLoopbackClient.fetch(port: port, target: RawLoopbackClient.target(of: redirect)).isAnswered(200))
            return pages.count
        }
        let status = await CLI.run(
            arguments: ["--issuer", "https://idp.regstate.sim", "--client-id", "regstate-cli",
                        "--redirect-uri", "http://127.0.0.1:0/callback", "--loopback", "--store", store.path],
            environment: [:], terminal: terminal, providerTransport: simulator.transport)
        let pages = try await browser.value
        #expect(pages >= 2, "no new sign-in page was shown after the first died: \(terminal.stderr)")
        #expect(terminal.stderr.contains("it was pushed again"), "\(terminal.stderr)")
        #expect(status == 0, "stdout: \(terminal.stdout)\nstderr: \(terminal.stderr)")
        #expect(terminal.stdout.contains("Active H (social"), "\(terminal.stdout)")
        #expect(!terminal.stdout.contains("Error F"), "\(terminal.stdout)")
    }
}
