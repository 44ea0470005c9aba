import Foundation
import RegState
import RegStateTesting
import Testing
import RegStateTestSupport

extension InteropTests {
    /// Issue 20: with the device clock minutes or a day off django-oauth-toolkit's, social registration used to end
    /// in F ("issue time is in the future" / "expired"). The engine now checks the ID token on the provider's clock,
    /// estimated from the `Date` header of the provider's answers, or, without one, from the fresh ID token's `iat`;
    /// the journal says once how far off the device clock is.
    @Suite("Device clock off from the provider's", .provider(.django))
    struct ClockSkewInterop {
        /// Seconds the device clock is off django's: ±2 min, ±10 min, ±1 h, ±1 day (positive: ahead).
        static let skews: [TimeInterval] = [-120, 120, -600, 600, -3600, 3600, -86_400, 86_400]

        /// The journal's clock notes.
        static func clockNotes(_ service: RegStateService) async throws -> [(seconds: Int, source: ClockOffsetSource)] {
            try await service.journalEntries().compactMap { entry in
                if case .clockOffsetObserved(let seconds, let source) = entry.event { return (seconds, source) }
                return nil
            }
        }

        /// Registers on `device` with a clock `skew` seconds off, over `transport`; returns the service, Active H.
        static func register(_ device: InteropDevice, _ peer: any Peer, skew: TimeInterval,
                             transport: any HTTPTransport) async throws -> RegStateService {
            let clock = ManualClock(start: Date().addingTimeInterval(skew), waitsOnWallTime: true)
            let service = RegStateService(configuration: device.configuration, dependencies: RegStateDependencies(
                store: device.store, journal: device.journal, transport: transport, clock: clock))
            #expect(await service.start() == .registrationRequired)
            let url = try await service.beginSocialRegistration()
            let callback = try await peer.login(url)
            let profile = try await service.completeSocialRegistration(callback: callback)
            #expect(profile.subject == (try await peer.aliceSubject()))
            let session = try await service.confirmRegistration()
            #expect(session.activation == .registered)
            _ = try await service.validAccessToken().token
            return service
        }

        @Test("django: social registration with the device clock off, and the journal says by how much",
              arguments: skews)
        func registrationWithSkewedClock(skew: TimeInterval) async throws {
            try await withPeer(.django) { peer in
                let device = InteropDevice(peer: peer)
                let service = try await Self.register(device, peer, skew: skew, transport: device.transport)
                let notes = try await Self.clockNotes(service)
                #expect(notes.count == 1, "notes: \(notes)")
                #expect(notes.first?.source == .dateHeader)
                // Provider minus device; the test's own run time and the header's one-second resolution aside.
                #expect(abs((notes.first?.seconds ?? 0) + Int(skew)) <= 30, "notes: \(notes)")
            }
        }

        @Test("django without a Date header: the fresh ID token's iat stands in for the provider's clock",
              arguments: [-120.0, 120, -600, 600, -86_400, 86_400])
        func registrationWithoutDateHeader(skew: TimeInterval) async throws {
            try await withPeer(.django) { peer in
                let device = InteropDevice(peer: peer)
                let service = try await Self.register(device, peer, skew: skew,
                                                      transport: RecordingTransport(base: device.transport) { request, _, base throws(TransportError) in
                    // django's answers without their `Date` header, as behind a proxy that strips it.
                    var response = try await base.send(request)
                    for name in response.headers.keys where name.lowercased() == "date" { response.headers[name] = nil }
                    return response
                })
                let notes = try await Self.clockNotes(service)
                #expect(notes.count == 1, "notes: \(notes)")
                #expect(notes.first?.source == .idTokenIssueTime)
                #expect(abs((notes.first?.seconds ?? 0) + Int(skew)) <= 30, "notes: \(notes)")
            }
        }
    }
}
