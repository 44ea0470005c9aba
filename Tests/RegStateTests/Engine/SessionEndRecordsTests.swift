import Foundation
import Testing
@testable import RegState
@testable import RegStateOngoingAccess
import RegStateSimulator
import RegStateTesting

/// Issue 27: a session's end leaves nothing of the user. Every kind of end (logout, forced logout, a final E,
/// clear-state) is checked against every record RegState writes (``TokenService/everyRecordKey``), with ongoing
/// access present, with and without the app's explicit choice to keep ongoing access.
@Suite("What each kind of session end leaves in the store")
struct SessionEndRecordsTests {
    enum End: String, CaseIterable, Sendable {
        case logout, forcedLogout, finalError, clearState

        func perform(_ service: RegStateService, _ device: SimulatedDevice) async throws {
            switch self {
            case .logout: _ = try await service.logout()
            case .forcedLogout: try await service.handleForcedLogout()
            case .finalError:
                await device.simulator.setRefusesRefresh(true)
                _ = await service.renewSession()
            case .clearState: _ = await service.clearState()
            }
        }
    }

    /// A registered session with every record there is: credentials, installation id, an ongoing-access record, a
    /// pending login of a second attempt, a quarantined copy.
    static func populated(keepingOngoingAccess: Bool) async throws -> (SimulatedDevice, RegStateService) {
        let device = try SimulatedDevice()
        var configuration = device.configuration
        configuration.keepsOngoingAccessAfterSessionEnd = keepingOngoingAccess
        let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: device.simulator.transport, clock: device.clock,
            platform: SystemPlatformService(formFactor: "390x844"), logger: device.logger))
        await service.start()
        try await device.signIn(service)
        try await service.confirmRegistration()
        let token = OAuthToken(accessToken: "oa-access", accessTokenExpiresAt: device.clock.now().addingTimeInterval(3600),
                               refreshToken: "oa-refresh", refreshTokenExpiresAt: device.clock.now().addingTimeInterval(86_400),
                               tokenType: "Bearer")
        try OngoingAccessTokenStore(store: device.store).save(.init(token: token, scope: .all))
        try device.store.set(Data("damaged".utf8), forKey: TokenService.quarantineKey)
        return (device, service)
    }

    @Test("logout, forced logout and a final E leave only the installation id; clear-state leaves nothing",
          arguments: End.allCases)
    func nothingOfTheUser(_ end: End) async throws {
        let (device, service) = try await Self.populated(keepingOngoingAccess: false)
        #expect(try device.store.data(forKey: OngoingAccessTokenStore.recordKey) != nil)
        try await end.perform(service, device)
        let left = Set(try device.store.keys())
        let expected: Set<String> = end == .clearState ? [] : [TokenService.installationKey]
        #expect(left.intersection(TokenService.everyRecordKey) == expected, "\(end): \(left.sorted())")
        #expect(try OngoingAccessTokenStore(store: device.store).load() == nil)
        if end == .clearState {
            #expect(left.isEmpty, "clear-state left \(left.sorted())")
        }
    }

    @Test("an app that opted in keeps ongoing access across logout, forced logout and a final E, not clear-state",
          arguments: End.allCases)
    func keptWhenTheAppChoseTo(_ end: End) async throws {
        let (device, service) = try await Self.populated(keepingOngoingAccess: true)
        try await end.perform(service, device)
        let kept = try OngoingAccessTokenStore(store: device.store).load()
        #expect((kept != nil) == (end != .clearState), "\(end)")
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
    }

    @Test("clear-state says what it removed, ongoing access included")
    func clearStateSaysSo() async throws {
        let (_, service) = try await Self.populated(keepingOngoingAccess: true)
        let result = await service.clearState()
        #expect(result.removedKeys.contains(OngoingAccessTokenStore.recordKey))
        #expect(result.removedKeys.contains(TokenService.credentialsKey))
    }
}
