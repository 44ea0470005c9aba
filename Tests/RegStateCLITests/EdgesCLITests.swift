import Foundation
import RegState
import RegStateSimulator
import RegStateTestSupport
import Testing

/// Issue 27 through the built CLI: a damaged or hostile number in the store or the journal never crashes `status`
/// or `events` (a typed message, a non-zero exit), a device ID that cannot be one URL path segment is refused before
/// anything is sent, and a forged redirect pasted during a pending login leaves it for the genuine one.
@Suite("CLI edges: numbers, IDs in URLs, forged redirects")
struct EdgesCLITests {
    static let hostile = ["1e308", "-1e308", "9.3e18", "-9.3e18", "253402300800"]

    /// `secure/credentials` with `member` set to the JSON number `value`.
    static func damage(_ device: CLIScenario, member: String, to value: String) throws {
        let url = device.store.appendingPathComponent("secure/credentials")
        let text = try String(contentsOf: url, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "\"\(member)\":[-0-9.eE+]+")
        let range = NSRange(text.startIndex..., in: text)
        #expect(pattern.firstMatch(in: text, range: range) != nil, "\(member) is in the record")
        let damaged = pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "\"\(member)\":\(value)")
        try Data(damaged.utf8).write(to: url)
    }

    @Test("status on a credentials record with a time out of range: a typed reason, exit 3, never a crash",
          arguments: hostile)
    func statusWithHostileExpiry(_ value: String) async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        try Self.damage(device, member: "expires_at", to: value)
        let status = try await device.run(["status"])
        #expect(status.status == 3, "stdout: \(status.stdout) stderr: \(status.stderr)")
        #expect(status.stdout.contains("Registration Required D"))
        #expect(status.stdout.contains("out of range"), "stdout: \(status.stdout)")
        let again = try await device.run(["status", "--json"])
        #expect(again.status == 3)
    }

    @Test("events with a journal line whose time is out of range: the rest printed, a typed message, exit 1",
          arguments: hostile)
    func eventsWithHostileTime(_ value: String) async throws {
        let device = try CLIScenario()
        _ = try await device.run(["status"])
        let journal = try FileJournal(url: device.store.appendingPathComponent("journal.log"))
        try journal.append(Data(#"{"at":\#(value),"event":{"launched":{"isNative":true}},"seq":99}"#.utf8))
        for arguments in [["events"], ["events", "--json"]] {
            let events = try await device.run(arguments)
            #expect(events.status == 1, "stderr: \(events.stderr)")
            #expect(events.stderr.contains("1 journal line(s) cannot be read"))
            #expect(events.stdout.contains("launched"))
        }
        let status = try await device.run(["status"])
        #expect(status.status == 3)
    }

    @Test("devices remove with an empty ID, . or ..: nothing sent, the reason printed, exit 2", arguments: ["", ".", ".."])
    func devicesRemoveRefused(_ id: String) async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let journalBefore = try Data(contentsOf: device.store.appendingPathComponent("journal.log"))
        let removed = try await device.run(["devices", "remove", id])
        #expect(removed.status == 2, "stderr: \(removed.stderr)")
        #expect(removed.stderr.contains("nothing was sent"), "stderr: \(removed.stderr)")
        // Not even a launch: the journal is as it was, and the device is still registered.
        #expect(try Data(contentsOf: device.store.appendingPathComponent("journal.log")) == journalBefore)
        let listed = try await device.run(["devices"])
        #expect(listed.stdout.contains("Registered devices (1):"))
        let json = try await device.run(["devices", "remove", id, "--json"])
        #expect(json.stdout.contains(#""error":"invalid_id""#))
    }

    @Test("a forged redirect pasted for a pending login is refused; the genuine one then registers, also in a later run")
    func forgedThenGenuine() async throws {
        let device = try CLIScenario()
        _ = try await device.run([], input: "1\n")                   // begun, then killed at "Sign in as"
        let url = try PendingLoginCLITests.pendingAuthorizationURL(in: device.store)
        let genuine = try await PendingLoginCLITests.redirect(for: url, in: device.store, as: "alice@example.com")
        var forged = try #require(URLComponents(url: genuine, resolvingAgainstBaseURL: false))
        forged.queryItems = forged.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        let forgedURL = try #require(forged.url).absoluteString

        // Run 2: the forged redirect, then the input ends (killed again): the login is still there.
        let second = try await device.run([], input: "\(forgedURL)\n")
        #expect(second.stderr.contains("does not belong to this sign-in"), "stderr: \(second.stderr)")
        #expect(FileManager.default.fileExists(atPath: device.store.appendingPathComponent("secure/pending_login").path))

        // Run 3: another forged one, then the genuine one.
        let third = try await device.run([], input: "\(forgedURL)\n\(genuine.absoluteString)\n1\n")
        #expect(third.status == 0, "stderr: \(third.stderr)")
        #expect(third.stdout.contains("Active H"))
        device.expectNoSecretsPrinted()
    }
}
