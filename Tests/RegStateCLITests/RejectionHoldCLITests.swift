import Foundation
import RegState
import RegStateTestSupport
import Testing

/// Issue 43 through the built CLI: a rejection hold stored a day ahead (written while the device's clock was ahead,
/// or damaged into an in-range future) holds for its own backoff from now, not for the day, and a held rejection
/// says what happened: held until when, nothing renewed.
@Suite("CLI: a rejection hold from the future")
struct RejectionHoldCLITests {
    /// `secure/credentials` with a hold of `backoff` seconds until `until` on the security token.
    static func holdSecurityToken(_ device: CLIScenario, until: TimeInterval, backoff: TimeInterval) throws {
        let url = device.store.appendingPathComponent("\(device.secureFolder)/credentials")
        let data = try #require(FileManager.default.contents(atPath: url.path))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["security_token"] != nil, "a self-mode session has a security token")
        object["security_token_hold"] = ["until": until, "backoff": backoff]
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url, options: .atomic)
    }

    /// The stored hold of the security token: until, backoff.
    static func storedHold(_ device: CLIScenario) throws -> (until: TimeInterval, backoff: TimeInterval)? {
        let url = device.store.appendingPathComponent("\(device.secureFolder)/credentials")
        let data = try #require(FileManager.default.contents(atPath: url.path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        guard let hold = object["security_token_hold"] as? [String: Any],
              let until = (hold["until"] as? NSNumber)?.doubleValue,
              let backoff = (hold["backoff"] as? NSNumber)?.doubleValue else { return nil }
        return (until, backoff)
    }

    @Test("Given a security-token hold a day ahead, call is held for the hold's 30 s backoff from now, says so, and renews once it has passed")
    func holdFromTheFuture() async throws {
        let device = try CLIScenario()
        let registeredAt = Date().timeIntervalSince1970.rounded()
        func at(_ seconds: TimeInterval) -> [String] { ["--sim-time", String(Int(registeredAt + seconds))] }
        try await device.registerSocially(at(0))
        try Self.holdSecurityToken(device, until: registeredAt + 86_400, backoff: 30)

        // The backend rejects: held, nothing renewed, and the message names the hold's end, 30 s from now.
        let held = try await device.run(["call", "--sim-api-rejects"] + at(10))
        #expect(held.status == 1, "stdout: \(held.stdout) stderr: \(held.stderr)")
        let until = Date(timeIntervalSince1970: registeredAt + 40).formatted(.iso8601)
        #expect(held.stderr.contains("held until \(until), not renewed"), "stderr: \(held.stderr)")
        #expect(!held.stderr.contains("after the token was renewed"), "nothing was renewed: \(held.stderr)")
        let json = try await device.run(["call", "--json", "--sim-api-rejects"] + at(20))
        #expect(json.stdout.contains(#""error":"rejectionHeld""#), "stdout: \(json.stdout)")
        // The cut is kept in the store: the hold ends 30 s after it was first read, not a day ahead.
        let stored = try #require(try Self.storedHold(device))
        #expect(stored.until == registeredAt + 40 && stored.backoff == 30, "stored: \(stored)")

        // Past the cut hold the rejection is renewed once (and rejected again: the API rejects every token).
        let renewed = try await device.run(["call", "--sim-api-rejects"] + at(41))
        #expect(renewed.status == 1)
        #expect(renewed.stderr.contains("again after the token was renewed"), "stderr: \(renewed.stderr)")
        // The API takes tokens again: the renewed token works.
        let call = try await device.run(["call"] + at(42))
        #expect(call.status == 0, "stdout: \(call.stdout) stderr: \(call.stderr)")
        #expect(try await device.run(["status"] + at(43)).stdout.contains("Active B"))
        device.expectNoSecretsPrinted()
    }
}
