import Foundation
import RegStateTesting
import Testing
@testable import RegState

/// The checks of the device authorization answer (RFC 8628 §3.2), end to end: the simulator's answer is changed on
/// its way back, and the sign-in either shows what the answer says (the defaults filled in) or ends in **F** with the
/// reason, nothing pending in the store and nothing polled.
@Suite("Device authorization answer checks")
struct DeviceAuthorizationAnswerTests {
    /// The simulator's transport, with each device authorization answer's members changed by `change`.
    struct ChangedAnswer: HTTPTransport {
        let base: any HTTPTransport
        let change: @Sendable (inout [String: JSONValue]) -> Void

        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            var response = try await base.send(request)
            guard request.url.path.hasSuffix("/oauth/device/code"), response.status == 200,
                  var object = (try? JSONValue.parse(response.body))?.objectValue else { return response }
            change(&object)
            response.body = JSONValue.object(object).serialized()
            return response
        }
    }

    /// One changed answer and what the sign-in must make of it.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let change: @Sendable (inout [String: JSONValue]) -> Void
        /// The reason code it fails with; `nil`: it is shown.
        let reason: String?
        var interval: TimeInterval = 5
        var lifetime: TimeInterval = 600
        var complete = true
    }

    static let cases: [Case] = [
        Case(testDescription: "no interval: 5 s", change: { $0["interval"] = nil }, reason: nil),
        Case(testDescription: "interval null: 5 s", change: { $0["interval"] = .null }, reason: nil),
        Case(testDescription: "interval 12", change: { $0["interval"] = .number(12) }, reason: nil, interval: 12),
        Case(testDescription: "interval 0: at least 1 s", change: { $0["interval"] = .number(0) }, reason: nil, interval: 1),
        Case(testDescription: "no complete URI", change: { $0["verification_uri_complete"] = nil }, reason: nil, complete: false),
        Case(testDescription: "expires_in of a year: held a day", change: { $0["expires_in"] = .number(31_536_000) },
             reason: nil, lifetime: 86_400),
        Case(testDescription: "no device_code", change: { $0["device_code"] = nil }, reason: "malformed_response"),
        Case(testDescription: "empty device_code", change: { $0["device_code"] = .string("") }, reason: "malformed_response"),
        Case(testDescription: "device_code of 513 bytes", change: { $0["device_code"] = .string(String(repeating: "d", count: 513)) },
             reason: "malformed_response"),
        Case(testDescription: "no user_code", change: { $0["user_code"] = nil }, reason: "malformed_response"),
        Case(testDescription: "user_code a number", change: { $0["user_code"] = .number(1234) }, reason: "malformed_response"),
        Case(testDescription: "no verification_uri", change: { $0["verification_uri"] = nil }, reason: "malformed_response"),
        Case(testDescription: "verification_uri not a web page", change: { $0["verification_uri"] = .string("javascript:alert(1)") },
             reason: "malformed_response"),
        Case(testDescription: "verification_uri over plain http", change: { $0["verification_uri"] = .string("http://idp.example/activate") },
             reason: "discovery_failed"),
        Case(testDescription: "complete URI over plain http",
             change: { $0["verification_uri_complete"] = .string("http://idp.example/activate?user_code=X") }, reason: "discovery_failed"),
        Case(testDescription: "no expires_in", change: { $0["expires_in"] = nil }, reason: "malformed_response"),
        Case(testDescription: "expires_in 0", change: { $0["expires_in"] = .number(0) }, reason: "malformed_response"),
        Case(testDescription: "expires_in negative", change: { $0["expires_in"] = .number(-5) }, reason: "malformed_response"),
        Case(testDescription: "interval negative", change: { $0["interval"] = .number(-1) }, reason: "malformed_response"),
        Case(testDescription: "interval a word", change: { $0["interval"] = .string("soon") }, reason: "malformed_response"),
        Case(testDescription: "interval above a day", change: { $0["interval"] = .number(86_401) }, reason: "malformed_response"),
    ]

    @Test("Given a changed device authorization answer, then it is shown with the defaults filled in, or F with its reason and nothing pending", arguments: cases)
    func answer(_ answer: Case) async throws {
        let device = try SimulatedDevice(clock: ManualClock(advancesWhileSleeping: true))
        let service = device.launch(transport: ChangedAnswer(base: device.simulator.transport, change: answer.change))
        await service.start()
        let began = device.clock.now()
        do {
            let shown = try await service.beginDeviceRegistration()
            #expect(answer.reason == nil, "shown, not F \(answer.reason ?? "")")
            #expect(shown.interval == answer.interval)
            #expect(shown.expiresAt == began.addingTimeInterval(answer.lifetime))
            #expect((shown.verificationURIComplete != nil) == answer.complete)
            #expect(await service.pendingDeviceRegistration() == shown)
        } catch {
            #expect(error.lettered?.reasonCode == answer.reason, "\(error)")
            #expect(await service.state.letter == "F")
            #expect(try device.store.data(forKey: PendingDeviceAuthorization.storeKey) == nil)
            for code in await device.simulator.deviceUserCodes {
                #expect(await device.simulator.devicePolls(userCode: code).isEmpty, "nothing polled")
            }
        }
    }
}
