import Foundation
import RegState
import RegStateTesting
import Testing

extension InteropTests {
    /// Issue 20: with the device clock minutes or a day off django-oauth-toolkit's, social registration used to end
    /// in F ("issue time is in the future" / "expired"). The engine now checks the ID token on the provider's clock,
    /// estimated from the `Date` header of the provider's answers.
    @Suite("Device clock off from the provider's")
    struct ClockSkewInterop {
        @Test("django: social registration with the device clock off", arguments: [-120.0, 600.0, -600.0, 86_400.0,
                                                                                   -86_400.0])
        func registrationWithSkewedClock(skew: TimeInterval) async throws {
            try await withPeer(.django) { peer in
                let device = InteropDevice(peer: peer)
                let clock = ManualClock(start: Date().addingTimeInterval(skew))
                let service = RegStateService(configuration: device.configuration, dependencies: RegStateDependencies(
                    store: device.store, journal: device.journal, transport: device.transport, clock: clock))
                #expect(await service.start() == .registrationRequired)
                let url = try await service.beginSocialRegistration()
                let callback = try await peer.login(url)
                let profile = try await service.completeSocialRegistration(callback: callback)
                #expect(profile.subject == (try await peer.aliceSubject()))
                let session = try await service.confirmRegistration()
                #expect(session.activation == .registered)
                _ = try await service.validAccessToken()
            }
        }
    }
}
