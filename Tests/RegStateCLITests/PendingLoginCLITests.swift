import Foundation
import RegStateSimulator
import RegStateTestSupport
import Testing

/// The walkthrough killed while the user is in the browser, then started again (issue 20): child processes on one
/// store, the second one finishing the login the first one began.
@Suite("CLI: a social login survives the process")
struct PendingLoginCLITests {
    /// The authorization URL of the login kept in `<store>/secure/pending_login`.
    static func pendingAuthorizationURL(in store: URL) throws -> URL {
        let url = store.appendingPathComponent("secure/pending_login")
        let data = try #require(FileManager.default.contents(atPath: url.path), "no pending login is stored")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let request = try #require(object["request"] as? [String: Any])
        return try #require((request["url"] as? String).flatMap(URL.init(string:)))
    }

    /// The redirect the simulated world (persisted in the store) sends the browser to after `email` signs in.
    static func redirect(for url: URL, in store: URL, as email: String) async throws -> URL {
        let world = try Simulator(persistence: store.appendingPathComponent("simulator", isDirectory: true))
        return try await world.authorize(url, as: email)
    }

    @Test("Given run 1 began a social login and exited, when run 2 gets the redirect, then it offers to finish it and registers, and the journal says the login was resumed")
    func secondRunFinishesTheLogin() async throws {
        let device = try CLIScenario()
        let first = try await device.run([], input: "1\n")              // the input ends at "Sign in as": killed
        #expect(first.status != 0)
        #expect(first.stderr.contains("Sign in as (email): "))
        let url = try Self.pendingAuthorizationURL(in: device.store)
        let journal = try String(contentsOf: device.store.appendingPathComponent("journal.log"), encoding: .utf8)
        let state = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "state" }?.value)
        #expect(!journal.contains(state), "the login's state never reaches the journal")

        let callback = try await Self.redirect(for: url, in: device.store, as: "alice@example.com")
        let second = try await device.run([], input: "\(callback.absoluteString)\n1\n")
        #expect(second.status == 0, "stderr: \(second.stderr)")
        #expect(second.stderr.contains("is waiting for its redirect"))
        let registerMenu = second.stderr.range(of: "1  Social login")
        #expect(registerMenu == nil, "the registration menu is not shown: the pending login was finished")
        #expect(second.stdout.contains("Awaiting Confirmation G"))
        #expect(second.stdout.contains("Active H"))
        #expect(!second.stdout.contains(state) && !second.stderr.contains(state))
        #expect(!FileManager.default.fileExists(atPath: device.store.appendingPathComponent("secure/pending_login").path))

        let events = try await device.run(["events"])
        #expect(events.stdout.contains("pendingLoginResumed"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given a pending login, when run 2 answers n, then it is discarded and the registration menu follows")
    func discardThenMenu() async throws {
        let device = try CLIScenario()
        _ = try await device.run([], input: "1\n")
        let second = try await device.run([], input: "n\nq\n")
        #expect(second.stderr.contains("The pending social login was discarded."))
        #expect(second.stderr.contains("1  Social login"))
        #expect(!FileManager.default.fileExists(atPath: device.store.appendingPathComponent("secure/pending_login").path))
        #expect(second.status == 3)
    }

    @Test("Given a pending login older than ten minutes, when the walkthrough starts again, then it says it expired and shows the menu")
    func expiredLoginIsDiscarded() async throws {
        let device = try CLIScenario()
        _ = try await device.run([], input: "1\n")
        let second = try await device.run(["--sim-advance", "601"], input: "q\n")
        #expect(second.stderr.contains("was not finished within 10 minutes; it has expired and was discarded."))
        #expect(second.stderr.contains("1  Social login"))
        #expect(!FileManager.default.fileExists(atPath: device.store.appendingPathComponent("secure/pending_login").path))
    }

    @Test("Given a pending login on the simulator, when run 2 answers with an email, then the simulated browser finishes it")
    func simulatorEmailFinishesIt() async throws {
        let device = try CLIScenario()
        _ = try await device.run([], input: "1\n")
        let second = try await device.run([], input: "bob@example.com\n1\n")
        #expect(second.status == 0, "stderr: \(second.stderr)")
        #expect(second.stdout.contains("Active H"))
    }
}
