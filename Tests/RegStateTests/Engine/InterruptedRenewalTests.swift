import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

/// A renewal whose grant reached the provider but whose answer was never stored (issue 13): the next launch knows.
/// With a provider reuse grace it recovers silently (Active C); with a strict provider the final E says why.
@Suite("Interrupted renewals")
struct InterruptedRenewalTests {

    /// Registers, lets the access token expire, and runs one launch whose renewal answer is lost.
    static func interruptedRenewal(grace: TimeInterval) async throws -> SimulatedDevice {
        let device = try SimulatedDevice { $0.refreshReuseGrace = grace }
        _ = try await device.registeredService()
        device.clock.advance(by: 2 * 3600)
        // The first refresh grant reaches the provider, and its answer is lost on the way back.
        let lossy = RecordingTransport(base: device.simulator.transport) { request, earlier, base throws(TransportError) in
            let response = try await base.send(request)
            if RecordingTransport.Kind(request) == .grant("refresh_token"), earlier == 0 {
                throw TransportError.connectionFailed("the answer was lost")
            }
            return response
        }
        let interrupted = device.launch(transport: lossy)
        _ = await interrupted.start()
        #expect(!lossy.requests(RecordingTransport.Kind.grant("refresh_token")).isEmpty, "the launch sent a refresh grant and lost its answer")
        let record = try #require(await TokenService(store: device.store, clock: device.clock).snapshot())
        #expect(record.renewalStartedAt != nil, "the start of the renewal is in the record")
        return device
    }

    @Test("Given a renewal whose answer was lost and a strict provider, when relaunched, then the final E carries interruptedRenewalRefused")
    func strictProviderNamesTheCause() async throws {
        let device = try await Self.interruptedRenewal(grace: 0)
        device.clock.advance(by: 5)
        let service = device.launch()
        var tape = await EventTape(service)
        #expect(await service.start() == .registrationRequired)
        #expect(await tape.nextEvent() == .error(.renewal(.interruptedRenewalRefused(reason: "invalid_grant"))))
        #expect(await device.storedRefreshToken() == nil)
    }

    @Test("Given a renewal whose answer was lost and a provider reuse grace, when relaunched within it, then Active C and the mark is gone")
    func graceRecoversSilently() async throws {
        let device = try await Self.interruptedRenewal(grace: 60)
        device.clock.advance(by: 5)
        let service = device.launch()
        guard case .active = await service.start() else {
            Issue.record("expected Active after the retried renewal, got \(await service.state)")
            return
        }
        let record = try #require(await TokenService(store: device.store, clock: device.clock).snapshot())
        #expect(record.renewalStartedAt == nil)
        #expect(record.isUsable)
    }

    @Test("Given a refresh token refused without an interrupted renewal, then the reason stays denied")
    func plainRefusalIsDenied() async throws {
        let device = try SimulatedDevice()
        _ = try await device.registeredService()
        device.clock.advance(by: 2 * 3600)
        await device.simulator.setRefusesRefresh(true)
        let service = device.launch()
        var tape = await EventTape(service)
        #expect(await service.start() == .registrationRequired)
        guard case .error(.renewal(.denied)) = await tape.nextEvent() else {
            Issue.record("expected a denied renewal")
            return
        }
    }

    @Test("a credentials record written before the renewal mark existed still reads")
    func oldRecordReads() throws {
        let json = #"{"access_token":"a","expires_at":1800000000,"refresh_token":"r","stage":"confirmed"}"#
        let record = try #require(StoredCredentials.read(Data(json.utf8)))
        #expect(record.renewalStartedAt == nil)
        #expect(record.refreshToken == "r")
    }
}
