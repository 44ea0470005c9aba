import Foundation
import RegState
import Testing

/// `status`, `events`, `logout` and `clear-state` across runs that share one store and one simulated world.
@Suite("CLI session commands")
struct SessionCommandTests {
    @Test("Given a 5-minute access token, when status runs after it expired, then it renews: Active C")
    func expiredTokenRenews() async throws {
        let device = try CLIScenario()
        try await device.registerSocially(["--sim-access-ttl", "300"])
        let status = try await device.run(["status", "--sim-advance", "400"])
        #expect(status.status == 0)
        #expect(status.lines.first?.hasPrefix("Active C") == true)
        device.expectNoSecretsPrinted()
    }

    @Test("Given a usable token, status settles from the stored record alone: it never opens the simulator's world")
    func statusDoesNotOpenTheWorld() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        // A world that cannot be read: any command that opened it would fail. Status with a usable token must not.
        let world = device.store.appendingPathComponent("simulator/simulator-world.json")
        let saved = try Data(contentsOf: world)
        try Data("not a world".utf8).write(to: world)
        let status = try await device.run(["status"])
        #expect(status.status == 0, "status failed: \(status.stderr)")
        #expect(status.stdout.contains("State: Active B (social, online"))
        #expect(try Data(contentsOf: world) == Data("not a world".utf8), "status wrote the world")
        // A command that needs the provider opens it (and reports it when it cannot).
        try saved.write(to: world)
        #expect(try await device.run(["logout"]).status == 0)
    }

    @Test("Given a 30 s access token (shorter than the 60 s grace), when status runs four times right after registration, then none renews: the grace is at most half the lifetime")
    func shortLivedTokenIsNotRenewedOnEveryCall() async throws {
        let device = try CLIScenario()
        // Every run's clock stands at a fixed distance from the registration, so a slow machine cannot age the token.
        let registeredAt = Date().timeIntervalSince1970.rounded()
        func at(_ seconds: TimeInterval) -> [String] { ["--sim-time", String(Int(registeredAt + seconds))] }
        try await device.registerSocially(["--sim-access-ttl", "30"] + at(0))
        for _ in 0..<4 {
            let status = try await device.run(["status"] + at(5))
            #expect(status.status == 0)
            #expect(status.lines.first?.hasPrefix("Active B") == true)
        }
        // Past its renewal point, drawn per token inside the grace window (at most 15 s, at least 1.5 s before it
        // expires): 1 s before expiry every drawn point has passed, and the same token is renewed once.
        let later = try await device.run(["status"] + at(29))
        #expect(later.lines.first?.hasPrefix("Active C") == true, "got: \(later.stdout)")
    }

    @Test("Given a renewal slower than the launch budget, when status runs, then it settles offline first and does not exit before the rotated token is stored")
    func slowLaunchRenewalIsFinishedBeforeExit() async throws {
        let device = try CLIScenario()
        try await device.registerSocially(["--sim-access-ttl", "300"])
        // The simulator holds its answer 3 s after rotating the refresh token: longer than the 2 s launch budget.
        let slow = try await device.run(["status", "--sim-advance", "400", "--sim-answer-delay", "3"])
        #expect(slow.status == 0)
        #expect(slow.lines.first?.hasPrefix("Error E (recoverable)") == true, "got: \(slow.stdout)")
        #expect(slow.lines.contains { $0.hasPrefix("Active C") }, "the late renewal is applied before exit: \(slow.stdout)")
        // Strict rotation: had the process exited before storing the successor, this renewal would present a retired
        // refresh token and the provider would end the session.
        let next = try await device.run(["status", "--sim-advance", "5000"])
        #expect(next.lines.first?.hasPrefix("Active C") == true, "got: \(next.stdout)")
        device.expectNoSecretsPrinted()
    }

    @Test("Given an expired token offline, when status runs, then Error E (recoverable) and the session stays active offline")
    func offlineRenewalKeepsSession() async throws {
        let device = try CLIScenario()
        try await device.registerSocially(["--sim-access-ttl", "300"])
        let status = try await device.run(["status", "--sim-offline", "--sim-advance", "400"])
        #expect(status.status == 0)
        #expect(status.lines.first?.hasPrefix("Error E (recoverable)") == true)
        #expect(status.stdout.contains("State: Active B (social, offline"))
        // Back online past the backoff the offline failure stored (1 s ± 20 %): before it, status answers E at once.
        let online = try await device.run(["status", "--sim-advance", "402"])
        #expect(online.lines.first?.hasPrefix("Active C") == true)
    }

    @Test("Given an expired token, when the provider refuses the refresh, then Error E then Registration Required D, exit 3")
    func refusalLeadsToD() async throws {
        let device = try CLIScenario()
        try await device.registerSocially(["--sim-access-ttl", "300"])
        let status = try await device.run(["status", "--sim-deny-refresh", "--sim-advance", "400"])
        #expect(status.status == 3)
        #expect(status.lines.first?.hasPrefix("Error E (final)") == true)
        #expect(status.lines.dropFirst().first == "Registration Required D")
        #expect(try await device.run(["status"]).status == 3)
    }

    @Test("Given a session, when clear-state runs, then it lists what it removed and status says D with exit 3")
    func clearStateThenD() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let cleared = try await device.run(["clear-state"])
        #expect(cleared.status == 0)
        #expect(cleared.stdout.contains("Removed: credentials, installation_id, journal"))
        #expect(try device.storedSecrets().isEmpty)
        let status = try await device.run(["status"])
        #expect(status.status == 3)
        #expect(status.stdout.contains("State: Registration Required D"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given a session, when logout runs offline, then it is refused (exit 1) and nothing changes; online it ends in D")
    func logoutOfflineRefusedThenOnline() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let before = try device.storedSecrets()
        #expect(!before.isEmpty)
        let refused = try await device.run(["logout", "--sim-offline"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Logout refused"))
        #expect(try device.storedSecrets() == before, "a refused logout keeps every stored token")
        #expect(try await device.run(["status"]).status == 0)

        let done = try await device.run(["logout"])
        #expect(done.status == 0)
        #expect(done.lines.contains("Registration Required D"))
        #expect(done.stdout.contains("Logged out: the provider revoked the refresh token"), "stdout: \(done.stdout)")
        #expect(try device.storedSecrets().isEmpty)
        #expect(try await device.run(["status"]).status == 3)
        #expect(try await device.run(["logout"]).status == 3)
        device.expectNoSecretsPrinted()
    }

    @Test("Given --json, when logout runs offline and then online, then a logout line says unreachable, then revoked")
    func logoutJSON() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let refused = try await device.run(["--json", "logout", "--sim-offline"])
        #expect(refused.status == 1)
        #expect(Self.logoutLine(refused.stdout) == ["result": "logout", "loggedOut": false, "revocation": "unreachable",
                                                   "detail": "noInternet"])
        let done = try await device.run(["--json", "logout"])
        #expect(done.status == 0)
        #expect(Self.logoutLine(done.stdout) == ["result": "logout", "loggedOut": true, "revocation": "revoked",
                                                "endSession": "ended"])
        device.expectNoSecretsPrinted()
    }

    /// The JSON object on stdout whose `result` is `logout`.
    static func logoutLine(_ stdout: String) -> JSONValue? {
        stdout.split(separator: "\n").compactMap { try? JSONValue.parse(Data($0.utf8)) }
            .first { $0.objectValue?["result"]?.stringValue == "logout" }
    }

    @Test("Given a registered device, when events runs, then the journal is printed with emails masked")
    func eventsAreRedacted() async throws {
        let device = try CLIScenario()
        try await device.registerSocially(as: "grace@example.com")
        let events = try await device.run(["events"])
        #expect(events.status == 0)
        #expect(events.lines.first?.hasPrefix("#1 ") == true)
        #expect(events.stdout.contains("registrationConfirmed"))
        #expect(events.stdout.contains("g***@example.com"))
        #expect(!events.stdout.contains("grace@example.com"))

        let json = try await device.run(["events", "--json"])
        let names = try json.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["event"] as? String)
        }
        #expect(names.first == "launched" && names.contains("registrationConfirmed"))
        #expect(!json.stdout.contains("grace@example.com"))
        device.expectNoSecretsPrinted()
    }
}
