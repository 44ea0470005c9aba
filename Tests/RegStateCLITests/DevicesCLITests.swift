import Foundation
import RegState
import RegStateTestSupport
import Testing

/// The device list in the CLI (issue 20): `devices`, `devices remove ID`, the walkthrough's offer at
/// `TOO_MANY_REGISTERED_DEVICES`, and `clear-state` deregistering the installation at the backend.
@Suite("CLI devices and clear-state at the backend")
struct DevicesCLITests {
    /// The device IDs a `devices --json` run listed, and which one is current.
    private static func listed(_ result: CLIResult) throws -> [(id: String, current: Bool)] {
        let line = try #require(result.lines.last { $0.contains("\"result\":\"devices\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let devices = try #require(object["devices"] as? [[String: Any]])
        return devices.compactMap { device in
            guard let id = device["id"] as? String, let current = device["current"] as? Bool else { return nil }
            return (id, current)
        }
    }

    /// A registration left behind at the backend: registered, then cleared while offline (the backend keeps it).
    private static func leaveARegistrationBehind(_ device: CLIScenario) async throws {
        try await device.registerSocially()
        let cleared = try await device.run(["clear-state", "--sim-offline"])
        #expect(cleared.status == 0)
        #expect(cleared.stdout.contains("Backend: The installation is still registered at the backend (offline)"),
                "stdout: \(cleared.stdout)")
    }

    @Test("Given a session, devices lists this device marked as current; --json has the same list")
    func listMarksCurrent() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let human = try await device.run(["devices"])
        #expect(human.status == 0, "stderr: \(human.stderr)")
        #expect(human.stdout.contains("Registered devices (1):"))
        #expect(human.stdout.contains("(this device)"))
        let json = try await device.run(["devices", "--json"])
        #expect(json.status == 0)
        let devices = try Self.listed(json)
        #expect(devices.count == 1)
        #expect(devices.first?.current == true)
        device.expectNoSecretsPrinted()
    }

    @Test("Given a registration left behind at the backend, devices remove ID frees it; an unknown ID is exit 1")
    func removeAnother() async throws {
        let device = try CLIScenario()
        try await Self.leaveARegistrationBehind(device)
        try await device.registerSocially()
        let devices = try Self.listed(try await device.run(["devices", "--json"]))
        #expect(devices.count == 2)
        #expect(devices.filter(\.current).count == 1)
        let other = try #require(devices.first { !$0.current }?.id)
        let removed = try await device.run(["devices", "remove", other, "--json"])
        #expect(removed.status == 0, "stderr: \(removed.stderr)")
        #expect(removed.stdout.contains("\"removed\":\"\(other)\""))
        #expect(try Self.listed(try await device.run(["devices", "--json"])).map(\.id).count == 1)
        let unknown = try await device.run(["devices", "remove", other])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("No device with the ID \(other) is registered to this account."))
        device.expectNoSecretsPrinted()
    }

    @Test("devices: no session is exit 3, offline is exit 1 with a reason, bad usage is exit 2, --help explains")
    func exitCodes() async throws {
        let fresh = try CLIScenario()
        let none = try await fresh.run(["devices", "--json"])
        #expect(none.status == 3)
        #expect(none.stdout.contains("\"error\":\"unauthorized\""))
        #expect(none.stderr.contains("To register, run: "))

        let device = try CLIScenario()
        try await device.registerSocially()
        let offline = try await device.run(["devices", "--sim-offline", "--json"])
        #expect(offline.status == 1)
        #expect(offline.stdout.contains("\"error\":\"transport\""), "stdout: \(offline.stdout)")

        #expect(try await device.run(["devices", "remove"]).status == 2)
        #expect(try await device.run(["devices", "list"]).status == 2)
        let help = try await device.run(["devices", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: regstate devices [remove ID]"))
        #expect(try await device.run(["--help"]).stdout.contains("devices [remove ID]"))
    }

    @Test("Given the device limit is reached, the walkthrough lists the devices, removes the chosen one, and the sign-in again confirms: H")
    func walkthroughAtTheLimit() async throws {
        let device = try CLIScenario()
        try await Self.leaveARegistrationBehind(device)
        let result = try await device.run(["--sim-max-devices", "1"],
                                          input: "1\nalice@example.com\n1\n1\n1\nalice@example.com\n1\n")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Error F: Too many devices are registered to this account."))
        #expect(result.stderr.contains("Remove a device to make room for this one:"))
        #expect(result.stderr.contains("Sign in again to confirm this device."))
        #expect(result.stdout.contains("Active H"))
        let devices = try Self.listed(try await device.run(["devices", "--json"]))
        #expect(devices.count == 1)
        #expect(devices.first?.current == true)
        device.expectNoSecretsPrinted()
    }

    @Test("Given the device limit, q keeps every device and stops in the error (exit 1)")
    func walkthroughKeepsDevices() async throws {
        let device = try CLIScenario()
        try await Self.leaveARegistrationBehind(device)
        let result = try await device.run(["--sim-max-devices", "1"], input: "1\nalice@example.com\n1\nq\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("Keep them all"))
    }

    @Test("Given a session, status --check-registration reports the launch's Check Registration (seed 002); offline it says it confirmed nothing; plain status sends nothing")
    func statusShowsTheCheck() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let online = try await device.run(["status", "--check-registration", "--json"])
        #expect(online.status == 0)
        #expect(online.stderr.contains("Registration check: confirmed by the backend (registered, profile up to date)"))
        #expect(online.stdout.contains(#""registration_check":"confirmed""#))
        // Offline with a valid token the launch settles online (nothing needed the network): the check is tried and
        // says it did not confirm anything.
        let offline = try await device.run(["status", "--check-registration", "--sim-offline", "--json"])
        #expect(offline.status == 0)
        #expect(offline.stderr.contains("Registration check: not confirmed"))
        #expect(!offline.stderr.contains("confirmed by the backend"))
        #expect(offline.stdout.contains(#""registration_check":"failed","reason":"transport""#)
                || offline.stdout.contains(#""reason":"transport","registration_check":"failed""#), "\(offline.stdout)")
        // Without the flag a quick status runs no check (nothing is sent, the simulated world stays closed).
        let plain = try await device.run(["status", "--json"])
        #expect(plain.status == 0)
        #expect(!plain.stderr.contains("Registration check"))
        #expect(!plain.stdout.contains("registration_check"))
        device.expectNoSecretsPrinted()
    }

    @Test("clear-state online says the backend removed the installation; --json carries it")
    func clearStateOnline() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        let cleared = try await device.run(["clear-state", "--json"])
        #expect(cleared.status == 0)
        #expect(cleared.stderr.contains("Backend: The backend removed this installation."))
        #expect(cleared.stdout.contains("\"installation\":\"deregistered\""))
        let again = try await device.run(["clear-state"])
        #expect(again.stdout.contains("Backend: No security token was stored"))
    }
}
