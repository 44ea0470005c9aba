import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import Testing
import RegStateTesting
import RegStateTestSupport

@Suite("Ongoing access beside the registration engine")
struct OngoingAccessBesideRegistrationTests {
    @Test("Consent, restore and refresh leave the registration session, its record and its journal as they were; logout ends ongoing access too (issue 27: unless the app opted in, SessionEndRecordsTests)")
    func neverDisturbsRegistration() async throws {
        let ongoing = try await OngoingAccessHarness()
        var simulated = SimulatorConfiguration()
        simulated.signingKey = OngoingAccessHarness.providerKey
        simulated.accessTokenLifetime = 7200  // the registration token outlives the ongoing-access one
        let simulator = try Simulator(configuration: simulated, clock: ongoing.clock)
        let journal = InMemoryJournal()
        let configuration = RegStateConfiguration(
            oidc: OIDCConfiguration(issuer: simulated.issuer, clientID: simulated.clientID,
                                    redirectURI: SimulatorConfiguration.literalURL("com.example.app:/callback")),
            backendURL: simulated.backendURL)
        func launch() -> RegStateService {
            RegStateService(configuration: configuration, dependencies: RegStateDependencies(
                store: ongoing.store, journal: journal, transport: simulator.transport, clock: ongoing.clock))
        }
        let registration = launch()
        #expect(await registration.start() == .registrationRequired)
        let callback = try await simulator.authorize(try await registration.beginSocialRegistration(), as: "alice@example.com")
        _ = try await registration.completeSocialRegistration(callback: callback)
        _ = try await registration.confirmRegistration()
        let registrationKeys = try ongoing.store.keys()
        #expect(registrationKeys.contains("credentials"))
        let registrationRecords = try registrationKeys.map { try ongoing.store.data(forKey: $0) }
        let journalBefore = try journal.read()

        let token = try await ongoing.consentOnce()
        ongoing.clock.advance(by: 3590)
        let restored = try await ongoing.service().authorizeOngoingAccess(oAuthToken: token)
        #expect(restored.refreshed)

        #expect(try ongoing.store.keys() == (registrationKeys + [OngoingAccessTokenStore.recordKey]).sorted())
        #expect(try registrationKeys.map { try ongoing.store.data(forKey: $0) } == registrationRecords)
        #expect(try journal.read() == journalBefore)
        let relaunched = launch()
        guard case .active(let session) = await relaunched.start() else {
            Issue.record("the registration session did not survive ongoing access")
            return
        }
        #expect(session.activation == .stored)
        #expect(try ongoing.storedRecord()?.token == restored.oAuthToken)
        try await relaunched.logout()
        #expect(try ongoing.storedRecord() == nil)
    }

    @Test("Each subscriber gets its own stream and is removed when it stops listening")
    func subscribers() async throws {
        let harness = try await OngoingAccessHarness()
        let service = await harness.service()
        var first: EventTape<OngoingAccessEvent>? = EventTape(service.events())
        var second = EventTape(service.events())
        #expect(service.subscriberCount == 2)
        _ = try await service.authorizeOngoingAccess()
        #expect(await second.take(1) == [.authorized(scope: .all)])
        #expect(await first?.take(1) == [.authorized(scope: .all)])
        first = nil
        await eventually { service.subscriberCount == 1 }
        #expect(service.subscriberCount == 1)
        #expect(await service.emittedEventCount == 1)
    }
}
