import Foundation
import RegState
@testable import RegStateSimulator
import Testing

/// The simulated backend's device list: list a user's installations and remove one, with a security token or, at
/// the device limit (no security token yet), the user's ID token.
@Suite("Simulated backend: devices")
struct DeviceListTests {
    private func ids(_ response: HTTPResponse) -> [String] {
        (response.jsonBody?["devices"]?.arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue }
    }

    @Test("at the device limit, the ID token lists the user's devices (not another user's) and removes one; then the new device registers")
    func limitThenRemove() async throws {
        let harness = try SimulatorHarness()
        await harness.simulator.setMaxDevicesPerUser(2)
        let idToken = try await BackendTests.idToken(harness)
        let phone = try BackendTests.securityToken(try await harness.securityToken(idToken: idToken, installation: "phone"))
        harness.clock.advance(by: 1)
        _ = try BackendTests.securityToken(try await harness.securityToken(idToken: idToken, installation: "tablet"))
        let bob = try await BackendTests.idToken(harness, "bob@example.com")
        _ = try BackendTests.securityToken(try await harness.securityToken(idToken: bob, installation: "bob-phone"))
        #expect(try await harness.securityToken(idToken: idToken, installation: "laptop").errorCode
                    == "TOO_MANY_REGISTERED_DEVICES")

        let listed = try await harness.backend(.get, "/v1/devices", token: idToken)
        #expect(listed.status == 200)
        #expect(ids(listed) == ["phone", "tablet"])
        // With a security token, its own installation is marked current.
        let mine = try await harness.backend(.get, "/v1/devices", token: phone)
        let current = (mine.jsonBody?["devices"]?.arrayValue ?? []).filter { $0.objectValue?["current"] == .bool(true) }
        #expect(current.compactMap { $0.objectValue?["id"]?.stringValue } == ["phone"])

        // Another user's device cannot be removed; an unknown credential is 401.
        #expect(try await harness.backend(.delete, "/v1/devices/bob-phone", token: idToken).errorCode == "unknown_device")
        #expect(try await harness.backend(.get, "/v1/devices", token: "not-a-token").status == 401)

        #expect(try await harness.backend(.delete, "/v1/devices/tablet", token: idToken).status == 204)
        #expect(ids(try await harness.backend(.get, "/v1/devices", token: idToken)) == ["phone"])
        #expect(try await harness.securityToken(idToken: idToken, installation: "laptop").status == 200)
    }

    @Test("removing the current device ends its security tokens")
    func removeCurrent() async throws {
        let harness = try SimulatorHarness()
        let idToken = try await BackendTests.idToken(harness)
        let phone = try BackendTests.securityToken(try await harness.securityToken(idToken: idToken, installation: "phone"))
        #expect(try await harness.backend(.delete, "/v1/devices/phone", token: phone).status == 204)
        #expect(try await harness.backend(.get, "/v1/registration", token: phone).status == 401)
    }
}
