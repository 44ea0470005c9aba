import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateTestSupport
import RegStateSimulator

/// The host app of seed 000: it logs in with its own OIDC client and pushes ID tokens into a ``RegStateService``
/// configured for ``SessionSource/host``.
struct HostApp {
    let device: SimulatedDevice
    let store: InMemorySecureStore
    let journal: InMemoryJournal

    init(configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws {
        device = try SimulatedDevice(configure: configure)
        store = device.store
        journal = device.journal
    }

    /// A second installation in the same world (its own store and journal).
    init(sharingWorldWith app: HostApp) {
        device = app.device
        store = InMemorySecureStore()
        journal = InMemoryJournal()
    }

    /// The host's own login at the simulator's provider: the ID token it would push.
    func login(as email: String = "alice@example.com") async throws -> String {
        let client = OIDCClient(configuration: device.configuration.oidc, transport: device.simulator.transport,
                                clock: device.clock)
        let request = try await client.makeAuthorizationRequest()
        let callback = try await device.simulator.authorize(request.url, as: email)
        let code = try await client.authorizationCode(from: callback, for: request)
        return try #require(try await client.exchangeCode(code, for: request).idToken)
    }

    /// A host-mode service as a launch builds it, started; the resource endpoint takes security tokens.
    func launch() async -> RegStateService {
        await device.simulator.setResourceTakesSecurityToken(true)
        var configuration = device.configuration
        configuration.sessionSource = .host
        let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: store, journal: journal, transport: device.simulator.transport, clock: device.clock,
            platform: SystemPlatformService(formFactor: "390x844"), logger: device.logger))
        await service.start()
        return service
    }

    /// A launched host-mode service whose host pushed alice's ID token, an hour and a second ago: the security token
    /// has expired, so the next request is held for the host.
    func launchPastSecurityTokenExpiry() async throws -> RegStateService {
        let service = await launch()
        try await service.updateToken(idToken: try await login())
        device.clock.advance(by: 3601)
        return service
    }

    /// The app's API client: every request under the backend URL carries the security token.
    func api(_ service: RegStateService) -> AuthorizedTransport {
        AuthorizedTransport(base: device.simulator.transport, service: service, policy: .backend(device.world.backendURL))
    }

    var resource: HTTPRequest {
        HTTPRequest(method: .get, url: device.world.backendURL.appendingPathComponent("v1/resource/tickets"))
    }

    func accepted() async -> Int {
        await device.simulator.resourceRequests.filter { if case .accepted = $0.bearer { true } else { false } }.count
    }

    func exchanges() async -> Int {
        await device.simulator.requestLog.filter { $0.hasPrefix("POST ") && $0.contains("/v1/security-token") }.count
    }
}

@Suite("Host mode (seed 000 test scenarios), one RegStateService")
struct HostModeTests {
    @Test("login: D, then the host's ID token makes Active H; the API accepts the security token; relaunch is Active B")
    func login() async throws {
        let app = try HostApp()
        let service = await app.launch()
        #expect(await service.state == .registrationRequired)
        // No session: the listed request fails typed and is not sent.
        await #expect(throws: RegStateServiceError.noSession) { _ = try await app.api(service).send(app.resource) }
        #expect(await app.device.simulator.resourceRequests.isEmpty)
        let idToken = try await app.login()
        let state = try await service.updateToken(idToken: idToken)
        #expect(state.letter == "H" && state.session?.registrationType == .hostSSO)
        #expect(try await app.api(service).send(app.resource).status == 200)
        #expect(await app.accepted() == 1)
        let relaunched = await app.launch()
        #expect(await relaunched.state.letter == "B")
        #expect(try await app.api(relaunched).send(app.resource).status == 200)
        // Journaled like the rest, and no token in the journal.
        let names = try await service.journalEntries().map(\.event.name)
        #expect(names.contains("hostTokenSubmitted") && names.contains("hostTokenAccepted"))
        let journal = try await service.journalEntries().map { "\($0)" }.joined()
        #expect(!journal.contains(idToken))
        await #expect(throws: RegStateServiceError.wrongSessionSource(.host)) { _ = try await service.validAccessToken().token }
    }

    @Test("the same ID token again is ignored: no second security token is bought")
    func repeatedIDTokenIgnored() async throws {
        let app = try HostApp { $0.maxSecurityTokensPerDevice = 1 }
        let service = await app.launch()
        let idToken = try await app.login()
        try await service.updateToken(idToken: idToken)
        try await service.updateToken(idToken: idToken)
        #expect(await app.exchanges() == 1)
    }

    @Test("an invalid ID token is refused by the same rules as registration: F, nothing stored or sent")
    func invalidIDToken() async throws {
        let app = try HostApp()
        let service = await app.launch()
        await app.device.simulator.setIDTokenDefect(.wrongAudience)
        let idToken = try await app.login()
        await #expect(throws: RegStateServiceError.self) { try await service.updateToken(idToken: idToken) }
        #expect(await service.state.letter == "F")
        #expect(await app.exchanges() == 0)
        #expect(try app.store.keys().contains("credentials") == false)
    }

    @Test("expiry online: 1,000 requests, one notice (E awaitingHost), all held, all go out once with the new token")
    func expiryOnlineThousand() async throws {
        let app = try HostApp()
        let service = await app.launch()
        try await service.updateToken(idToken: try await app.login())
        let tape = await EventTape(service)
        defer { tape.close() }
        app.device.clock.advance(by: 3601)
        let api = app.api(service)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1000 { group.addTask { try await api.send(app.resource).status } }
            await eventually { await service.heldRequestCount == 1000 }
            try await service.updateToken(idToken: try await app.login())
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 1000 && statuses.allSatisfy { $0 == 200 })
        await eventually { tape.recorded.map(\.title).contains("Active C") }
        #expect(tape.notices == 1)
        #expect(await app.accepted() == 1000)
        #expect(await app.device.simulator.resourceRequests.count == 1000)
        let requested = try await service.journalEntries().filter { $0.event.name == "renewalRequested" }
        #expect(requested.count == 1)
    }

    @Test("a 401 from the backend: one notice, 50 requests held, each sent once more after updateToken")
    func backendRejection() async throws {
        let app = try HostApp()
        let service = await app.launch()
        try await service.updateToken(idToken: try await app.login())
        let tape = await EventTape(service)
        defer { tape.close() }
        await app.device.simulator.setResourceRejectsEveryToken(true)
        let api = app.api(service)
        var before = 0
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await api.send(app.resource).status } }
            await eventually { await service.heldRequestCount == 50 }
            before = await app.device.simulator.resourceRequests.count
            await app.device.simulator.setResourceRejectsEveryToken(false)
            try await service.updateToken(idToken: try await app.login())
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(tape.notices == 1)
        // Those sent before the notice were rejected; the others were held before going out. After the host's
        // answer each of the 50 went out exactly once more.
        let sent = await app.device.simulator.resourceRequests.count
        #expect((1...50).contains(before))
        #expect(sent - before == 50)
        #expect(await app.exchanges() == 2)
    }

    @Test("expiry offline: the request fails with the transport error and the session stays active")
    func expiryOffline() async throws {
        let app = try HostApp()
        let service = await app.launch()
        try await service.updateToken(idToken: try await app.login())
        await app.device.simulator.setOffline(true)
        await #expect(throws: (any Error).self) { _ = try await app.api(service).send(app.resource) }
        #expect(await service.state.session != nil)
    }

    @Test("transient issue: held requests fail offline, E recoverable, the session stays offline with its data",
          arguments: TransientIssue.allCases)
    func transientIssue(_ issue: TransientIssue) async throws {
        let app = try HostApp()
        let service = try await app.launchPastSecurityTokenExpiry()
        let api = app.api(service)
        let held = Task { try await api.send(app.resource) }
        await eventually { await service.heldRequestCount == 1 }
        try await service.notifyTokenRenewalTransientIssue(issue)
        await #expect(throws: RegStateServiceError.offline(issue)) { _ = try await held.value }
        #expect(await service.state.session?.connectivity == .offline(issue))
        #expect(try app.store.keys().contains("credentials"))
        // Within the backoff the host is not asked again.
        await #expect(throws: RegStateServiceError.offline(issue)) { _ = try await api.send(app.resource) }
        #expect(await service.heldRequestCount == 0)
        // The same ID token is exchanged again while offline (the backend may take it now).
        try await service.updateToken(idToken: try await app.login())
        #expect(try await api.send(app.resource).status == 200)
    }

    @Test("denial: the host reports the SSO's refusal; held requests fail, E final, storage cleared, D")
    func denial() async throws {
        let app = try HostApp()
        let service = try await app.launchPastSecurityTokenExpiry()
        let api = app.api(service)
        let held = Task { try await api.send(app.resource) }
        await eventually { await service.heldRequestCount == 1 }
        try await service.logout(.ssoDenied)
        await #expect(throws: RegStateServiceError.noSession) { _ = try await held.value }
        #expect(await service.state == .registrationRequired)
        #expect(try app.store.keys().contains("credentials") == false)
    }

    @Test("logout needs a connection, except when every token expired offline")
    func logoutPrecedence() async throws {
        let app = try HostApp()
        let service = await app.launch()
        try await service.updateToken(idToken: try await app.login())
        await app.device.simulator.setOffline(true)
        await #expect(throws: RegStateServiceError.offline(.noInternet)) { try await service.logout(.userRequested) }
        #expect(await service.state.session != nil)
        try await service.logout(.allTokensExpiredOffline)
        #expect(await service.state == .registrationRequired)
        await app.device.simulator.setOffline(false)
        try await service.updateToken(idToken: try await app.login())
        try await service.logout(.userRequested)
        #expect(await service.state == .registrationRequired)
    }

    @Test("device limit: 403 TOO_MANY_REGISTERED_DEVICES is typed")
    func deviceLimit() async throws {
        let app = try HostApp { $0.maxDevicesPerUser = 1 }
        try await app.launch().updateToken(idToken: try await app.login())
        let other = await HostApp(sharingWorldWith: app).launch()
        await #expect(throws: RegStateServiceError.registration(.tooManyRegisteredDevices)) {
            try await other.updateToken(idToken: try await app.login())
        }
    }

    @Test("session limit: 403 MAX_NUMBER_SECURITY_TOKEN is typed")
    func sessionLimit() async throws {
        let app = try HostApp { $0.maxSecurityTokensPerDevice = 1 }
        let service = await app.launch()
        try await service.updateToken(idToken: try await app.login())
        await app.device.simulator.setResourceRejectsEveryToken(true)
        let api = app.api(service)
        let held = Task { try await api.send(app.resource) }
        await eventually { await service.heldRequestCount == 1 }
        await #expect(throws: RegStateServiceError.registration(.maxSecurityTokens)) {
            try await service.updateToken(idToken: try await app.login())
        }
        await #expect(throws: RegStateServiceError.registration(.maxSecurityTokens)) { _ = try await held.value }
    }

    @Test("forced logout from the backend ends the session and clears storage")
    func forcedLogout() async throws {
        let app = try HostApp()
        let service = await app.launch()
        try await service.updateToken(idToken: try await app.login())
        try await app.device.simulator.forceLogout(email: "alice@example.com")
        let response = try await app.api(service).send(app.resource)
        #expect(response.status == 403)
        #expect(await service.state == .registrationRequired)
        #expect(try app.store.keys().contains("credentials") == false)
    }

    @Test("a forced logout at updateToken's exchange: the requests held for the host hear it, once the session ended")
    func forcedLogoutAtExchange() async throws {
        let app = try HostApp()
        let service = try await app.launchPastSecurityTokenExpiry()
        let (api, store, resource) = (app.api(service), app.store, app.resource)
        // What the held caller finds on disk the moment it hears of the end: the session already gone.
        let held = Task { () -> (RegStateServiceError?, [String]) in
            do throws(RegStateServiceError) {
                _ = try await api.send(resource)
            } catch {
                return (error, (try? store.keys()) ?? [])
            }
            return (nil, [])
        }
        await eventually { await service.heldRequestCount == 1 }
        _ = try await app.device.simulator.forceLogout(email: "alice@example.com")
        await #expect(throws: RegStateServiceError.backend(.forcedLogout)) {
            try await service.updateToken(idToken: try await app.login())
        }
        let heard = await held.value
        #expect(heard.0 == .backend(.forcedLogout))
        #expect(heard.1.contains("credentials") == false)
        #expect(await service.state == .registrationRequired)
    }

    @Test("a backend rejecting every token: one notice, one renewal, then a typed failure without asking again")
    func rejectingBackend() async throws {
        let app = try HostApp()
        let service = await app.launch()
        try await service.updateToken(idToken: try await app.login())
        let tape = await EventTape(service)
        defer { tape.close() }
        await app.device.simulator.setResourceRejectsEveryToken(true)
        let api = app.api(service)
        let first = Task { try await api.send(app.resource) }
        await eventually { await service.heldRequestCount == 1 }
        try await service.updateToken(idToken: try await app.login())
        await #expect(throws: RegStateServiceError.rejectedAfterRenewal) { _ = try await first.value }
        let held = RegStateServiceError.rejectionHeld(until: app.device.clock.now().addingTimeInterval(30))
        for _ in 0..<5 {
            await #expect(throws: held) { _ = try await api.send(app.resource) }
        }
        #expect(tape.notices == 1)
        #expect(await app.exchanges() == 2)
        // After the backoff the host is asked again, once.
        app.device.clock.advance(by: 31)
        let again = Task { try await api.send(app.resource) }
        await eventually { await service.heldRequestCount == 1 }
        await eventually { tape.notices == 2 }
        try await service.notifyTokenRenewalTransientIssue(.noInternet)
        _ = try? await again.value
    }

    @Test("cancellation: a cancelled caller stops waiting at once; the others get the renewed token")
    func cancellation() async throws {
        let app = try HostApp()
        let service = try await app.launchPastSecurityTokenExpiry()
        let api = app.api(service)
        let cancelled = Task { try await api.send(app.resource) }
        let kept = Task { try await api.send(app.resource) }
        await eventually { await service.heldRequestCount == 2 }
        cancelled.cancel()
        await #expect(throws: RegStateServiceError.cancelled) { _ = try await cancelled.value }
        #expect(await service.heldRequestCount == 1)
        try await service.updateToken(idToken: try await app.login())
        #expect(try await kept.value.status == 200)
    }

    @Test("a record of the first host-mode implementation (host-session) is read at launch and migrated")
    func legacyRecordMigrated() async throws {
        let app = try HostApp()
        let first = await app.launch()
        let idToken = try await app.login()
        try await first.updateToken(idToken: idToken)
        let securityToken = try await first.securityToken().token
        // What HostSession stored: JSONEncoder defaults (dates as seconds since 2001).
        let legacy = #"{"idToken":"\#(idToken)","securityToken":"\#(securityToken)","securityTokenExpiresAt":\#(app.device.clock.now().addingTimeInterval(3600).timeIntervalSinceReferenceDate)}"#
        try app.store.removeValue(forKey: "credentials")
        try app.store.set(Data(legacy.utf8), forKey: "host-session")
        let relaunched = await app.launch()
        #expect(await relaunched.state.letter == "B")
        #expect(try app.store.keys().contains("host-session") == false)
        #expect(try await app.api(relaunched).send(app.resource).status == 200)
    }

    @Test("self mode refuses the host-mode calls with a typed error")
    func selfModeRefusesHostCalls() async throws {
        let device = try SimulatedDevice()
        let service = try await device.registeredService()
        await #expect(throws: RegStateServiceError.wrongSessionSource(.selfRenewing)) {
            try await service.updateToken(idToken: "x")
        }
        await #expect(throws: RegStateServiceError.wrongSessionSource(.selfRenewing)) {
            try await service.notifyTokenRenewalTransientIssue(.noInternet)
        }
    }
}

extension EventTape where Event == RegStateEvent {
    /// How many "the host must renew" notices were recorded.
    var notices: Int { recorded.filter { $0 == .error(.renewal(.awaitingHost)) }.count }
}
