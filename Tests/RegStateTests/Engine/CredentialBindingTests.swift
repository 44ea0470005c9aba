import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

/// Issue 14: credentials are bound to the issuer and client they came from. Another configuration on the same store
/// never reads, renews with, revokes or sends them; it sees D with a typed reason, and the record is left alone.
@Suite("Credentials bound to their issuer and client")
struct CredentialBindingTests {
    /// A configuration on the device's store and journal other than the device's own world.
    static func service(on device: SimulatedDevice, issuer: URL? = nil, clientID: String? = nil,
                        transport: (any HTTPTransport)? = nil) -> RegStateService {
        var configuration = device.configuration
        if let issuer { configuration.oidc.issuer = issuer }
        if let clientID { configuration.oidc.clientID = clientID }
        return RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: transport ?? device.simulator.transport,
            clock: device.clock, platform: SystemPlatformService(formFactor: "390x844"), logger: device.logger))
    }

    /// A second provider (its own issuer and client) whose world shares the device's clock.
    static func otherWorld(_ device: SimulatedDevice) throws -> Simulator {
        var configuration = SimulatorConfiguration(issuer: SimulatorConfiguration.literalURL("https://idp2.regstate.sim"),
                                                   clientID: "other-client")
        configuration.signingKey = SimulatedDevice.sharedSigningKey
        return try Simulator(configuration: configuration, clock: device.clock)
    }

    static func other(_ world: Simulator) async -> (issuer: URL, clientID: String) {
        let configuration = await world.configuration
        return (configuration.issuer, configuration.clientID)
    }

    static func lastInspection(_ service: RegStateService) async throws -> StoredTokenStatus? {
        let entries = try await service.journalEntries()
        for entry in entries.reversed() {
            if case .storedTokensInspected(let status) = entry.event { return status }
        }
        return nil
    }

    static let mismatches: [(issuer: String?, client: String?, reason: CredentialBindingMismatch)] = [
        ("https://idp.elsewhere.example", nil, .issuer),
        ("https://idp.regstate.sim/", nil, .issuer),
        (nil, "another-client", .client),
        ("https://idp.elsewhere.example", "another-client", .issuer),
    ]

    @Test("Given a session of one provider, when a configuration with another issuer or client launches (valid or expired token), then D with the reason journaled, nothing sent, the record untouched", arguments: 0..<mismatches.count, [false, true])
    func otherConfigurationSeesD(_ index: Int, expired: Bool) async throws {
        let (issuer, client, reason) = Self.mismatches[index]
        let device = try SimulatedDevice()
        _ = try await device.registeredService()
        let before = try #require(try device.store.data(forKey: TokenService.credentialsKey))
        if expired { device.clock.advance(by: 7200) }
        await device.simulator.resetCounters()
        let service = Self.service(on: device, issuer: issuer.map(SimulatorConfiguration.literalURL), clientID: client)
        var tape = await EventTape(service)
        #expect(await service.start() == .registrationRequired)
        #expect(await tape.next(1) == ["Registration Required D"])
        #expect(try await Self.lastInspection(service) == .boundElsewhere(reason))
        await #expect(throws: AccessTokenError.noSession) { try await service.validAccessToken() }
        #expect(await service.tokenRejected("anything") == nil)
        await service.renewSession()
        await #expect(throws: (any Error).self) { try await service.logout() }
        let transport = AuthorizedTransport(base: device.simulator.transport, service: service,
                                            policy: TokenPolicy(validatingURLs: [device.world.backendURL]))
        await #expect(throws: AccessTokenError.noSession) {
            _ = try await transport.send(HTTPRequest(method: .get, url: device.world.backendURL.appendingPathComponent("v1/profile")))
        }
        #expect(await device.simulator.requestLog.isEmpty, "nothing may reach the provider or backend")
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == before, "the record is left alone")
        #expect(try device.store.data(forKey: TokenService.quarantineKey) == nil)
        // The configuration that stored them still has its session.
        let own = device.launch()
        #expect(await own.start().session != nil)
        #expect(try await own.validAccessToken().isEmpty == false)
    }

    @Test("Given two providers on one store, when each registers in turn, then each only ever uses its own credentials: no refresh, revocation or bearer token reaches the other")
    func twoProvidersTakeTurns() async throws {
        let device = try SimulatedDevice()
        let first = try await device.registeredService()
        let firstAgain = device.launch()
        #expect(await firstAgain.start().letter == "B")
        let world2 = try Self.otherWorld(device)
        let (issuer2, client2) = await Self.other(world2)
        await device.simulator.resetCounters()
        // A second configuration registers on the same store: its record replaces the first one's.
        let second = Self.service(on: device, issuer: issuer2, clientID: client2, transport: world2.transport)
        #expect(await second.start() == .registrationRequired)
        let url = try await second.beginSocialRegistration()
        _ = try await second.completeSocialRegistration(callback: try await world2.authorize(url, as: "bob@example.com"))
        try await second.confirmRegistration()
        let record = try #require(try device.store.data(forKey: TokenService.credentialsKey))
        #expect(String(decoding: record, as: UTF8.self).contains("idp2.regstate.sim"))
        // The first service, still running, finds the record gone from under it: nothing of it is used.
        await #expect(throws: AccessTokenError.noSession) { try await first.validAccessToken() }
        device.clock.advance(by: 7200)
        await #expect(throws: AccessTokenError.noSession) { try await first.validAccessToken() }
        #expect(await firstAgain.renewSession() == .registrationRequired)
        let result = try await first.logout().result
        #expect(result == .nothingToRevoke)
        #expect(await device.simulator.requestLog.isEmpty, "the first provider was sent nothing")
        #expect(await world2.refreshGrantCount == 0)
        #expect(await world2.revokedTokenCount == 0)
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == record, "the second's record is kept")
        // A relaunch of the first configuration: D with the reason; of the second: its session (renewed, expired).
        let relaunched = device.launch()
        #expect(await relaunched.start() == .registrationRequired)
        #expect(try await Self.lastInspection(relaunched) == .boundElsewhere(.issuer))
        let again = Self.service(on: device, issuer: issuer2, clientID: client2, transport: world2.transport)
        #expect(await again.start().letter == "C")
        #expect(await world2.refreshGrantCount == 1)
        #expect(await device.simulator.requestLog.isEmpty)
    }

    @Test("Given another configuration's credentials, when clear-state runs, then they are removed")
    func clearStateReplaces() async throws {
        let device = try SimulatedDevice()
        _ = try await device.registeredService()
        let service = Self.service(on: device, issuer: SimulatorConfiguration.literalURL("https://idp.elsewhere.example"))
        #expect(await service.start() == .registrationRequired)
        #expect(await service.clearState().removedKeys.contains(TokenService.credentialsKey))
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
    }

    @Test("The reason survives the journal: encoded and decoded, every mismatch")
    func reasonJournals() throws {
        for reason in CredentialBindingMismatch.allCases {
            let entry = JournalEntry(sequence: 1, recordedAt: Date(timeIntervalSince1970: 1),
                                     event: .storedTokensInspected(.boundElsewhere(reason)))
            #expect(try JournalEntry.decode(try entry.encoded()) == entry)
            #expect(try RegStateMachine.transition(from: .unsettled, on: entry.event).state == .registrationRequired)
        }
    }
}
