import Foundation
import Testing
@testable import RegState
import RegStateSimulator

@Suite("Startup paths A, B, C, D, E")
struct StartupPathTests {
    @Test("given a non-native platform, when launched, then Active A with the agreed token")
    func nonNativeIsA() async throws {
        let harness = try EngineHarness()
        let service = harness.launch(platform: FixedPlatformService.web)
        var tape = await EventTape(service)
        #expect(await service.start() == .active(Session(activation: .nonNative)))
        #expect(await tape.next(1) == ["Active A"])
        #expect(try await service.validAccessToken() == "agreed-non-native-token")
    }

    @Test("given nothing stored, when launched, then Registration Required D")
    func emptyIsD() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        var tape = await EventTape(service)
        #expect(await service.start() == .registrationRequired)
        #expect(await tape.next(1) == ["Registration Required D"])
    }

    @Test("given a registered user with a valid token, when relaunched, then Active B without contacting the provider")
    func validIsB() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let before = await harness.simulator.tokenRequestCount
        let service = harness.launch()
        var tape = await EventTape(service)
        let state = await service.start()
        #expect(state.letter == "B")
        #expect(state.session?.profile?.email == "alice@example.com")
        #expect(await tape.next(1) == ["Active B"])
        #expect(await harness.simulator.tokenRequestCount == before)
    }

    @Test("given an expired token, when relaunched, then Active C and the rotated refresh token is stored")
    func expiredIsC() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let oldRefresh = try #require(await harness.storedRefreshToken())
        harness.clock.advance(by: 3600)
        let service = harness.launch()
        var tape = await EventTape(service)
        #expect(await service.start().letter == "C")
        #expect(await tape.next(1) == ["Active C"])
        #expect(await harness.simulator.refreshGrantCount == 1)
        let newRefresh = try #require(await harness.storedRefreshToken())
        #expect(newRefresh != oldRefresh)
    }

    @Test("given a token inside the grace period, when relaunched, then it is renewed (C), not used (B)")
    func gracePeriodRenews() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 3600 - 30)
        #expect(await harness.launch().start().letter == "C")
    }

    @Test("given an expired token and no network, when relaunched, then Error E recoverable and the session stays active offline")
    func offlineIsRecoverableE() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let refresh = await harness.storedRefreshToken()
        harness.clock.advance(by: 7200)
        await harness.simulator.setOffline(true)
        let service = harness.launch()
        var tape = await EventTape(service)
        let state = await service.start()
        #expect(state.session?.connectivity == .offline(.noInternet))
        #expect(state.letter == "B")
        #expect(await tape.next(2) == ["Error E", "Active B"])
        #expect(await harness.storedRefreshToken() == refresh)
        await #expect(throws: RegStateError.renewal(.transient(.noInternet))) { try await service.validAccessToken() }

        await harness.simulator.setOffline(false)
        _ = try await service.validAccessToken()
        #expect(await service.state.letter == "C")
        #expect(await service.state.session?.connectivity == .online)
    }

    @Test("given the provider refuses the refresh, when relaunched, then Error E final, storage cleared, then D")
    func refusalIsFinalE() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 7200)
        await harness.simulator.setRefusesRefresh(true)
        let service = harness.launch()
        var tape = await EventTape(service)
        #expect(await service.start() == .registrationRequired)
        #expect(await tape.next(2) == ["Error E", "Registration Required D"])
        #expect(await harness.storedRefreshToken() == nil)
        #expect(try harness.store.keys().contains(TokenService.installationKey))
    }

    @Test("given every token expired while offline, when relaunched, then the client logs out on its own")
    func exhaustedOfflineLogsOut() async throws {
        let harness = try EngineHarness { $0.refreshTokenLifetime = 86_400 }
        _ = try await harness.registeredService()
        harness.clock.advance(by: 2 * 86_400)
        await harness.simulator.setOffline(true)
        let service = harness.launch()
        var tape = await EventTape(service)
        #expect(await service.start() == .registrationRequired)
        let first = await tape.nextEvent()
        #expect(first == .error(.renewal(.credentialsExhausted)))
    }

    @Test("given a corrupt credentials record, when launched, then a clean D, the record set aside and nothing else lost")
    func corruptStoreIsCleanD() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let installation = try harness.store.data(forKey: TokenService.installationKey)
        try harness.store.set(Data("{\"stage\":\"confirmed\",\"access_tok".utf8), forKey: TokenService.credentialsKey)
        #expect(await harness.launch().start() == .registrationRequired)
        #expect(try harness.store.data(forKey: TokenService.installationKey) == installation)
        #expect(try harness.store.data(forKey: TokenService.quarantineKey) != nil)
    }
}

/// Answers refresh grants with a body that is not a token response; everything else goes to the simulator.
struct MalformedRefreshTransport: HTTPTransport {
    let base: any HTTPTransport
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if request.formParameters["grant_type"] == "refresh_token" {
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{\"access_tok".utf8))
        }
        return try await base.send(request)
    }
}

@Suite("Bad input at launch")
struct BadInputAtLaunchTests {
    @Test("a torn journal tail is dropped at replay; the launch settles as usual")
    func tornJournal() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.journal.appendRawBytes(Data("8badf00d {\"seq\":99,\"event\":{\"launch".utf8))
        let service = harness.launch()
        #expect(await service.start().letter == "B")
        #expect(try harness.journal.read().droppedLines == 0)
        #expect(JournalEntry.fold(try await service.journalEntries()) == (await service.state))
    }

    @Test("a malformed token response at renewal is a recoverable E: the session and its refresh token are kept")
    func malformedTokenResponse() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let refresh = await harness.storedRefreshToken()
        harness.clock.advance(by: 3600)
        let service = RegStateService(configuration: harness.configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal,
            transport: MalformedRefreshTransport(base: harness.simulator.transport), clock: harness.clock))
        let state = await service.start()
        #expect(state.session?.connectivity == .offline(.ssoUnspecifiedIssue))
        #expect(await harness.storedRefreshToken() == refresh)
    }
}
