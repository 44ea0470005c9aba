import Foundation
import Testing

/// Issue 20: the CLI claims nothing that is not true, and its `--json` says why in a stable code.
@Suite("CLI truthful output")
struct TruthfulOutputTests {
    @Test("Given an expired token offline, when status runs, then Active B says the token needs renewal, never an expiry")
    func offlineExpiredStatus() async throws {
        let device = try CLIScenario()
        try await device.registerSocially(["--sim-access-ttl", "300"])
        let status = try await device.run(["status", "--sim-offline", "--sim-advance", "400"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("State: Active B (social, offline"))
        #expect(status.stdout.contains("access token needs renewal"))
        #expect(!status.stdout.contains("access token expires"))
        let json = try await device.run(["status", "--sim-offline", "--sim-advance", "400", "--json"])
        let objects = try json.lines.compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        let error = try #require(objects.first { $0["event"] as? String == "error" })
        #expect(error["reason"] as? String == "transient_no_internet")
        #expect(objects.contains { $0["event"] as? String == "sessionActive" && $0["renewalPending"] as? Bool == true })
    }

    @Test("Given --json and a wrong code, then the error line carries reason wrong_code")
    func jsonReasonForWrongCode() async throws {
        let device = try CLIScenario()
        let result = try await device.run(["--json"], input: "2\ndave@example.com\n000000x\nc\nq\n")
        let objects = try result.lines.compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        #expect(objects.contains { $0["event"] as? String == "error" && $0["reason"] as? String == "wrong_code" })
    }

    @Test("Given a registered device, when events --json runs, then no line holds a Codable _0 wrapper")
    func eventsWithoutWrappers() async throws {
        let device = try CLIScenario()
        try await device.registerSocially(["--sim-access-ttl", "300"])
        _ = try await device.run(["status", "--sim-offline", "--sim-advance", "400"])
        let events = try await device.run(["events", "--json"])
        #expect(events.stdout.contains("renewalFailed"))
        #expect(!events.stdout.contains("_0"))
        let human = try await device.run(["events"])
        #expect(!human.stdout.contains("_0"))
    }
}
