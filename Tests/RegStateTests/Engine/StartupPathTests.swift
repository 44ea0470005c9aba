import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

@Suite("Startup paths A, B, C, D, E")
struct StartupPathTests {
    @Test("given a non-native platform, when launched, then Active A with the agreed token")
    func nonNativeIsA() async throws {
        let harness = try EngineHarness()
        let service = harness.launch(platform: FixedPlatformService.web)
        var tape = await EventTape(service)
        #expect(await service.start() == .active(Session(activation: .nonNative)))
        #expect(await tape.next(1) == ["Active A"])
        #expect(try await service.validAccessToken().token == "agreed-non-native-token")
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
        await harness.simulator.resetCounters()
        #expect(await harness.simulator.requestLog.isEmpty)
        let service = harness.launch()
        var tape = await EventTape(service)
        let state = await service.start()
        #expect(state.letter == "B")
        #expect(state.session?.profile?.email == "alice@example.com")
        #expect(await tape.next(1) == ["Active B"])
        #expect(await harness.simulator.requestLog == [], "a launch with a valid token sends nothing")
        #expect(await harness.simulator.tokenRequestCount == 0)
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

    @Test("given a token past its renewal point (drawn inside the grace period; 5 s before expiry every point has passed), when relaunched, then it is renewed (C), not used (B)")
    func gracePeriodRenews() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        // The renewal point is drawn per token inside the 60 s grace window, at least 6 s before expiry: 5 s before it,
        // every drawn point has passed.
        harness.clock.advance(by: 3600 - 5)
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
        await #expect(throws: RegStateServiceError.offline(.noInternet)) { try await service.validAccessToken().token }

        await harness.simulator.setOffline(false)
        // Past the backoff the failure stored (1 s ± 20 %): before it, a call answers offline without asking.
        harness.clock.advance(by: 2)
        _ = try await service.validAccessToken().token
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
        #expect(await harness.storedRefreshToken() == nil)
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == nil)
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

@Suite("Refresh token rotation and storage failures")
struct RotationAndStorageTests {
    @Test("given a refresh answer without refresh_token, when relaunched after expiry, then Active C and the old refresh token is kept")
    func missingRefreshTokenKeepsOld() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let tokens = TokenService(store: harness.store, clock: harness.clock)
        let oldRefresh = try #require(await harness.storedRefreshToken())
        let oldAccess = try #require(await tokens.snapshot()?.accessToken)
        harness.clock.advance(by: 3600)
        await harness.simulator.setRotatesRefreshTokens(false)
        await harness.simulator.resetCounters()
        let service = harness.launch()
        #expect(await service.start().letter == "C")
        #expect(await harness.simulator.refreshGrantCount == 1, "one refresh answer, without refresh_token")
        #expect(await harness.storedRefreshToken() == oldRefresh)
        let newAccess = try #require(await tokens.snapshot()?.accessToken)
        #expect(newAccess != oldAccess)
        #expect(try await service.validAccessToken().token == newAccess)
        // The kept refresh token is the one the provider still honours: the next expiry renews again.
        harness.clock.advance(by: 3600)
        let renewedAgain = try await service.validAccessToken().token
        #expect(renewedAgain != newAccess)
        #expect(await harness.storedRefreshToken() == oldRefresh)
    }

    @Test("given the store cannot write the rotated tokens, when a caller asks for a token, then the new token is neither handed out nor stored alone")
    func rotatedTokenPersistedBeforeUse() async throws {
        let harness = try EngineHarness()
        // Watches the refresh answers (unchanged) for the access token the provider issued, and arms a store failure
        // for the write of the rotated tokens once the answer passes (after the renewal's own mark was written).
        let issuedAccessTokens = LockedValue<[String]>([])
        let onRefreshAnswer = LockedValue<(@Sendable () -> Void)?>(nil)
        let transport = RecordingTransport(base: harness.simulator.transport) { request, _, base throws(TransportError) in
            let response = try await base.send(request)
            guard RecordingTransport.Kind(request) == .grant("refresh_token"), response.status == 200,
                  let access = response.jsonBody?.objectValue?["access_token"]?.stringValue else { return response }
            issuedAccessTokens.withLock { $0.append(access) }
            onRefreshAnswer.withLock { $0 }?()
            return response
        }
        let service = RegStateService(configuration: harness.configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: transport, clock: harness.clock))
        await service.start()
        try await harness.signIn(service, as: "alice@example.com")
        try await service.confirmRegistration()
        let tokens = TokenService(store: harness.store, clock: harness.clock)
        let oldAccess = try #require(await tokens.snapshot()?.accessToken)
        let oldRefresh = try #require(await harness.storedRefreshToken())
        harness.clock.advance(by: 3600)
        let failure = StoreError.writeFailed(key: "credentials", reason: "disk full")
        let store = harness.store
        onRefreshAnswer.withLock { $0 = { store.failNextWrite(failure) } }
        await #expect(throws: RegStateServiceError.renewal(.storage(try #require(failure.errorDescription)))) {
            try await service.validAccessToken().token
        }
        // The provider did rotate: its new access token must not have been handed out or stored without its refresh token.
        let issued = try #require(issuedAccessTokens.withLock { $0 }.last, "no refresh answer reached the client")
        #expect(issued != oldAccess)
        // The old pair stays, whole: a local disk failure is recoverable and never ends the session (seed 000).
        #expect(await tokens.snapshot()?.accessToken == oldAccess)
        #expect(await harness.storedRefreshToken() == oldRefresh)
        #expect(await service.state.session != nil, "the session must survive a local write failure")
        #expect((try? await service.validAccessToken().token) != issued)
    }

    @Test("given the store cannot be read at launch, then a recoverable E, nothing moved, and the next launch gives B")
    func unreadableStoreAtLaunch() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let installation = try #require(try harness.store.data(forKey: TokenService.installationKey))
        let credentials = try #require(try harness.store.data(forKey: TokenService.credentialsKey))
        let failure = StoreError.unreadable(key: "credentials", reason: "io")
        harness.store.failNextRead(failure)
        let service = harness.launch()
        let reason = try #require(failure.errorDescription)
        // Not D: registering again would replace credentials that may be fine. A typed, recoverable error instead.
        #expect(await service.start() == .failed(.renewal(.storage(reason))))
        #expect(RegStateError.renewal(.storage(reason)).isRecoverable)
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == credentials)
        #expect(try harness.store.data(forKey: TokenService.installationKey) == installation)
        #expect(try harness.store.data(forKey: TokenService.quarantineKey) == nil)
        #expect(try await service.journalEntries().last?.event == .storedTokensInspected(.unreadable(reason: reason)))
        // The read error passes: the next launch finds the session.
        #expect(await harness.launch().start().letter == "B")
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
        await harness.simulator.setAnswersRefreshMalformed(true)
        let state = await harness.launch().start()
        #expect(state.session?.connectivity == .offline(.ssoUnspecifiedIssue))
        #expect(await harness.storedRefreshToken() == refresh)
    }
}
