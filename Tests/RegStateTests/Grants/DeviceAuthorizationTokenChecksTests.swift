import Foundation
import RegStateTesting
import Testing
@testable import RegState

/// The device grant's tokens pass the checks every grant's tokens pass before anything is stored: an approved code
/// whose token answer has no ID token, a forged signature, or an expired ID token ends in **F** with nothing stored;
/// the one that passes is stored bound to its issuer and client.
@Suite("Device authorization grant: the token checks")
struct DeviceAuthorizationTokenChecksTests {
    /// The simulator's transport, with the device grant's token answer changed by `change`.
    struct ChangedTokens: HTTPTransport {
        let base: any HTTPTransport
        let change: @Sendable (inout [String: JSONValue]) -> Void

        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            var response = try await base.send(request)
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            guard body.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code"), response.status == 200,
                  var object = (try? JSONValue.parse(response.body))?.objectValue else { return response }
            change(&object)
            response.body = JSONValue.object(object).serialized()
            return response
        }
    }

    /// The ID token with one character inside its signature changed (not the last, whose low bits may be padding).
    static func forged(_ idToken: String) -> String {
        var characters = Array(idToken)
        let index = characters.count - 10
        characters[index] = characters[index] == "A" ? "B" : "A"
        return String(characters)
    }

    @Test("Given an approved code, when the token answer has no ID token, a forged signature or an expired ID token, then F with the reason and nothing stored", arguments: [
        ("no ID token", "malformed_response"), ("forged signature", "invalid_id_token"), ("expired ID token", "invalid_id_token"),
    ])
    func refused(_ change: String, _ reason: String) async throws {
        let device = try SimulatedDevice(clock: ManualClock(advancesWhileSleeping: true))
        let service = device.launch(transport: ChangedTokens(base: device.simulator.transport) { object in
            switch change {
            case "no ID token": object["id_token"] = nil
            case "forged signature": object["id_token"] = object["id_token"]?.stringValue.map { .string(Self.forged($0)) }
            default: break
            }
        })
        if change == "expired ID token" { await device.simulator.setLifetimes(idToken: -3_600) }
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com")
        do {
            _ = try await service.completeDeviceRegistration()
            Issue.record("registered with \(change)")
        } catch {
            #expect(error.lettered?.reasonCode == reason, "\(error)")
        }
        #expect(await service.state.letter == "F")
        #expect(await device.simulator.deviceTokenAnswers(userCode: shown.userCode) == 1, "one token answer, not polled again")
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
        #expect(try device.store.data(forKey: PendingDeviceAuthorization.storeKey) == nil)
    }

    @Test("Given an approved code and a valid ID token, then the stored tokens are bound to the issuer and client they came from")
    func boundToIssuerAndClient() async throws {
        let device = try SimulatedDevice(clock: ManualClock(advancesWhileSleeping: true))
        let service = device.launch()
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com")
        let profile = try await service.completeDeviceRegistration()
        #expect(profile.issuer == device.configuration.oidc.issuer.absoluteString)
        let record = try #require(try device.store.data(forKey: TokenService.credentialsKey))
        let object = try #require((try JSONValue.parse(record)).objectValue)
        #expect(object["client_id"]?.stringValue == device.configuration.oidc.clientID)
        #expect(object["issuer"]?.stringValue == device.configuration.oidc.issuer.absoluteString)
    }
}
