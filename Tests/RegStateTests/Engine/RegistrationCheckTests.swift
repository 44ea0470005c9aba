import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

/// Seed 002's Check Registration (issue 20): on a launch with stored credentials and a connection the backend checks
/// the access token at the provider's userinfo and the profile is refreshed, when its `sub` is the stored ID token's.
@Suite("Check Registration")
struct RegistrationCheckTests {
    /// A fresh launch as an app would build it, with the library's default: the check on (a backend is configured).
    static func launch(_ harness: EngineHarness, transport: (any HTTPTransport)? = nil) -> RegStateService {
        var configuration = harness.configuration
        configuration.checksRegistrationAtLaunch = nil
        return RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: transport ?? harness.simulator.transport,
            clock: harness.clock, logger: harness.logger))
    }

    @Test("a launch with a stored session: B first, then the backend confirms and the renamed profile is stored")
    func launchRefreshesTheProfile() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let checksBefore = await harness.simulator.checkRegistrationCount
        await harness.simulator.renameUser(email: "alice@example.com", to: "Alice Renamed")
        let service = Self.launch(harness)
        var tape = await EventTape(service)
        #expect(await service.start().letter == "B")
        #expect(await tape.next(1) == ["Active B"])
        let result = try #require(await service.launchRegistrationCheck())
        let check = try result.get()
        #expect(check.registered)
        #expect(check.profileChanged)
        #expect(check.profile.name == "Alice Renamed")
        #expect(await harness.simulator.checkRegistrationCount == checksBefore + 1)
        // Stored: the next launch shows the new name; the journal of this launch never held it.
        #expect(!String(decoding: harness.journal.rawBytes, as: UTF8.self).contains("Alice Renamed"))
        guard case .active(let next) = await Self.launch(harness).start() else { Issue.record("not active"); return }
        #expect(next.profile?.name == "Alice Renamed")
    }

    @Test("userinfo answers another sub: subjectMismatch, nothing stored changes")
    func subjectMismatchChangesNothing() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let before = try harness.store.data(forKey: TokenService.credentialsKey)
        await harness.simulator.reconfigure { $0.userinfoSubject = "someone-else" }
        await #expect(throws: RegStateServiceError.registrationCheck(.subjectMismatch)) { _ = try await service.checkRegistration() }
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == before)
        let relaunched = Self.launch(harness)
        await relaunched.start()
        #expect(await relaunched.launchRegistrationCheck() == .failure(.registrationCheck(.subjectMismatch)))
        #expect(await relaunched.state.letter == "B", "the session stays; only the check failed")
    }

    @Test("off by configuration, offline, or without a backend: no check is sent and none is claimed")
    func notRunWhenItCannot() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let before = await harness.simulator.checkRegistrationCount
        var off = harness.configuration
        off.checksRegistrationAtLaunch = false
        let quiet = RegStateService(configuration: off, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport, clock: harness.clock))
        #expect(await quiet.start().letter == "B")
        #expect(await quiet.launchRegistrationCheck() == nil)

        var local = harness.configuration
        local.checksRegistrationAtLaunch = nil
        local.backendURL = nil
        let noBackend = RegStateService(configuration: local, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport, clock: harness.clock))
        await noBackend.start()
        #expect(await noBackend.launchRegistrationCheck() == nil)
        await #expect(throws: RegStateServiceError.registrationCheck(.noBackend)) { _ = try await noBackend.checkRegistration() }

        // Offline with an expired token: the launch settles offline (E, B) and checks nothing.
        harness.clock.advance(by: 2 * 3_600)
        await harness.simulator.setOffline(true)
        let offline = Self.launch(harness)
        await offline.start()
        #expect(await offline.launchRegistrationCheck() == nil)
        await harness.simulator.setOffline(false)
        #expect(await harness.simulator.checkRegistrationCount == before)
    }

    @Test("an access token the provider no longer accepts: the backend says 401, the check fails, the session stays")
    func revokedTokenIsRefused() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        _ = try await harness.simulator.revokeAllRefreshTokens(for: "alice@example.com")
        await #expect(throws: RegStateServiceError.backend(.unauthorized)) { _ = try await service.checkRegistration() }
        #expect(await service.state.letter == "H")
    }

    @Test("the backend's 503 with Retry-After: 30 holds the check for 30 s, across launches (the hold is the one the security-token exchange keeps)")
    func retryAfterHoldsTheCheck() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let transport = RecordingTransport(base: harness.simulator.transport) { request, _, base throws(TransportError) in
            if request.url.path.hasSuffix("/v1/check-registration") {
                return HTTPResponse(status: 503, headers: ["Retry-After": "30"])
            }
            return try await base.send(request)
        }
        let checks = { transport.requests(.path("/v1/check-registration")).count }
        let service = Self.launch(harness, transport: transport)
        await service.start()
        // The launch's own check meets the 503; the app's call right after is held, nothing sent.
        #expect(await service.launchRegistrationCheck() == .failure(.backend(.rateLimited(retryAfter: 30))))
        #expect(checks() == 1)
        await #expect(throws: RegStateServiceError.backend(.rateLimited(retryAfter: 30))) {
            _ = try await service.checkRegistration()
        }
        #expect(checks() == 1)
        for _ in 0..<3 {
            harness.clock.advance(by: 9)
            // A relaunch (whose own launch check is held too) and the app's call: nothing reaches the backend.
            let relaunched = Self.launch(harness, transport: transport)
            await relaunched.start()
            _ = await relaunched.launchRegistrationCheck()
            await #expect(throws: RegStateServiceError.self) { _ = try await relaunched.checkRegistration() }
        }
        #expect(checks() == 1, "nothing sent within the backend's 30 s")
        harness.clock.advance(by: 3)
        _ = try? await service.checkRegistration()
        #expect(checks() == 2)
    }

    @Test("a launch sends nothing before it settles; afterwards the check is its only request, to the backend")
    func launchSendsOnlyTheCheck() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        await harness.simulator.resetCounters()
        let service = Self.launch(harness)
        #expect(await service.start().letter == "B")
        _ = await service.launchRegistrationCheck()
        let log = await harness.simulator.requestLog
        #expect(log == ["GET /v1/check-registration"], "the only request of this launch is the check, to the backend")
        #expect(await harness.simulator.tokenRequestCount == 0)
    }

    @Test("a DPoP-bound access token is never sent for the check: senderConstrainedToken")
    func dpopBoundIsNotSent() async throws {
        let harness = try EngineHarness { $0.dpop = .allowed }
        var configuration = harness.configuration
        configuration.dpop = .required
        configuration.checksRegistrationAtLaunch = true
        let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport, clock: harness.clock))
        await service.start()
        try await harness.signIn(service)
        try await service.confirmRegistration()
        let before = await harness.simulator.checkRegistrationCount
        await #expect(throws: RegStateServiceError.registrationCheck(.senderConstrainedToken)) { _ = try await service.checkRegistration() }
        #expect(await harness.simulator.checkRegistrationCount == before)
    }

    @Test("the access token goes only to the configured backend's check endpoint, never elsewhere")
    func tokenOnlyToTheBackend() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let recording = RecordingTransport(base: harness.simulator.transport)
        let service = Self.launch(harness, transport: recording)
        await service.start()
        _ = await service.launchRegistrationCheck()
        let token = try await service.validAccessToken().token
        let carrying = recording.requests.filter { request in
            request.headers.values.contains { $0.contains(token) }
        }
        #expect(carrying.map(\.url.absoluteString) == [harness.world.backendURL.absoluteString + "/v1/check-registration"])
    }
}

