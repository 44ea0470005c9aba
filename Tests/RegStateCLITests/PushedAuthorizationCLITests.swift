import Foundation
import RegStateSimulator
import RegStateTestSupport
import Testing

/// Pushed authorization requests (RFC 9126) through the CLI against the simulator: `--sim-par`, `--sim-par-ttl`,
/// `--par`.
@Suite("CLI: pushed authorization requests")
struct PushedAuthorizationCLITests {
    static let par = ["--sim-par", "required", "--sim-par-ttl", "5"]

    @Test("Given a pushed login begun by run 1, when run 2 starts after its request_uri died, then the login begins again (a new push) and registers: H")
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
        #expect(second.stderr.contains("the login began again"))
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
