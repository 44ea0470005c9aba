import Foundation
import RegState
import RegStateSimulator
import RegStateTestSupport
import Testing

/// `call`, `update-token` and `notify-transient` as a user or a script runs them: the built binary, one store and
/// one simulated world across runs.
@Suite("CLI: backend calls and host mode")
struct HostCommandTests {
    /// The host app's own login at the store's simulated provider (in this process, on the shared world file):
    /// the ID token it would push.
    static func hostLogin(_ device: CLIScenario, as email: String = "alice@example.com") async throws -> String {
        let world = SimulatorConfiguration()
        let simulator = try Simulator(configuration: world,
                                      persistence: device.store.appendingPathComponent("simulator", isDirectory: true))
        let redirect = SimulatorConfiguration.literalURL(try #require(world.redirectURIs.first))
        let client = OIDCClient(configuration: OIDCConfiguration(issuer: world.issuer, clientID: world.clientID,
                                                                 redirectURI: redirect),
                                transport: simulator.transport)
        let request = try await client.makeAuthorizationRequest()
        let callback = try await simulator.authorize(request.url, as: email)
        let code = try await client.authorizationCode(from: callback, for: request)
        return try #require(try await client.exchangeCode(code, for: request).idToken)
    }

    @Test("Given a self-mode session, call reaches the backend API with the security token; a rejecting API fails typed; a forced logout ends the session")
    func callInSelfMode() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let call = try await device.run(["call"])
        #expect(call.status == 0, "stderr: \(call.stderr)")
        #expect(call.stdout.contains("HTTP 200 /v1/resource/tickets"))
        let rejected = try await device.run(["call", "--json", "--sim-api-rejects"])
        #expect(rejected.status == 1)
        #expect(rejected.stdout.contains(#""error":"rejectedAfterRenewal""#))
        let forced = try await device.run(["call", "/v1/resource/tickets", "--sim-api-forces-logout"])
        #expect(forced.status == 1)
        #expect(forced.stdout.contains("HTTP 403"))
        #expect(forced.stdout.contains("Registration Required D"))
        #expect(try await device.run(["status"]).status == 3)
        device.expectNoSecretsPrinted()
    }

    @Test("Given an expired session, call renews the security token once (the ID token through one refresh) and succeeds")
    func callRenews() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let call = try await device.run(["call", "--sim-advance", "4000"])
        #expect(call.status == 0, "stderr: \(call.stderr)")
        #expect(call.stdout.contains("HTTP 200"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given host mode, update-token from stdin makes Active H, the same token is ignored, call works, notify-transient keeps the session offline")
    func hostModeCommands() async throws {
        let device = try CLIScenario()
        let first = try await device.run(["status", "--host-mode"])
        #expect(first.status == 3)
        let idToken = try await Self.hostLogin(device)
        let update = try await device.run(["update-token"], input: idToken + "\n")
        #expect(update.status == 0, "stderr: \(update.stderr)")
        #expect(update.stdout.contains("Active H"))
        let again = try await device.run(["update-token"], input: idToken + "\n")
        #expect(again.status == 0)
        #expect(!again.stdout.contains("Active C"), "the same ID token is ignored")
        let call = try await device.run(["call", "--host-mode"])
        #expect(call.status == 0, "stderr: \(call.stderr)")
        #expect(call.stdout.contains("HTTP 200"))
        // The backend rejects: the host is told once (E), and this run answers for it, so the call fails offline.
        let rejected = try await device.run(["call", "--host-mode", "--json", "--sim-api-rejects"])
        #expect(rejected.status == 1)
        #expect(rejected.stdout.contains(#""error":"offline.ssoUnspecifiedIssue""#))
        let notify = try await device.run(["notify-transient", "no-internet"])
        #expect(notify.status == 0, "stderr: \(notify.stderr)")
        #expect(notify.stdout.contains("Error E (recoverable)"))
        #expect(notify.stdout.contains("offline"))
        let renewed = try await device.run(["update-token"], input: try await Self.hostLogin(device) + "\n")
        #expect(renewed.status == 0)
        #expect(renewed.stdout.contains("Active C"))
        let events = try await device.run(["events"])
        #expect(events.stdout.contains("hostTokenSubmitted") && events.stdout.contains("hostTokenAccepted"))
        #expect(!events.stdout.contains(idToken))
        #expect(!update.stdout.contains(idToken) && !update.stderr.contains(idToken))
        device.expectNoSecretsPrinted()
    }

    @Test("Given bad host-mode usage, then exit 2: no issue, an unknown issue, no token on stdin")
    func usage() async throws {
        let device = try CLIScenario()
        #expect(try await device.run(["notify-transient"]).status == 2)
        #expect(try await device.run(["notify-transient", "sunspots"]).status == 2)
        #expect(try await device.run(["call", "relative"]).status == 2)
        #expect(try await device.run(["update-token"], input: "").status == 2)
        let help = try await device.run(["update-token", "--help"])
        #expect(help.status == 0 && help.stdout.contains("standard input"))
    }
}
