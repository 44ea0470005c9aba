import Foundation
import RegState
import RegStateSimulator
import RegStateTestSupport
import Testing

/// Several `regstate` processes on one store and one simulated world, renewing the same expired token at once
/// (issue 13): child processes, not threads.
@Suite("Processes sharing a store")
struct SharedStoreProcessTests {
    static let processes = 4
    static let rounds = 3

    /// The refresh grants the shared simulated world has answered so far (its counters are persisted).
    static func refreshGrants(in store: URL) async throws -> Int {
        let world = try Simulator(persistence: store.appendingPathComponent("simulator", isDirectory: true))
        return await world.refreshGrantCount
    }

    /// Moves the stored access token's expiry into the past, as if the device's clock had run past it (no process
    /// is running on the store when this is called).
    static func expireStoredAccessToken(in device: CLIScenario) throws {
        let url = device.store.appendingPathComponent("\(device.secureFolder)/credentials")
        let data = try #require(FileManager.default.contents(atPath: url.path))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["expires_at"] = 1
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url, options: .atomic)
    }

    @Test("Given N processes finding one expired token at once, when they renew, then all settle active and the provider saw exactly one grant per round",
          arguments: [false, true])
    func concurrentRenewalsMakeOneGrantPerRound(keychain: Bool) async throws {
        // keychain: the Keychain double (items atomic one by one, no lock of their own) behind the App Group lock.
        let device = try CLIScenario(keychain: keychain)
        try await device.registerSocially()
        var grants: [Int] = []
        for _ in 0..<Self.rounds {
            try Self.expireStoredAccessToken(in: device)
            let before = try await Self.refreshGrants(in: device.store)
            let children = try (0..<Self.processes).map { _ in try device.start(["status"]) }
            for child in children {
                let result = try device.record(await child.finish())
                #expect(result.status == 0, "stderr: \(result.stderr)")
                #expect(result.lines.first?.hasPrefix("Active") == true, "got: \(result.stdout)")
            }
            grants.append(try await Self.refreshGrants(in: device.store) - before)
        }
        // One grant per round: the launch inspection takes the status and the token to replace from one read, so a
        // process that finds another's fresh token under the lock uses it instead of renewing again.
        #expect(grants == Array(repeating: 1, count: Self.rounds), "refresh grants per round: \(grants)")
        let next = try await device.run(["status"])
        #expect(next.status == 0)
        #expect(next.stdout.contains("State: Active"))
        let logout = try await device.run(["logout"])
        #expect(logout.status == 0, "stderr: \(logout.stderr)")
        #expect(try await device.run(["status"]).status == 3)
        device.expectNoSecretsPrinted()
    }
}
