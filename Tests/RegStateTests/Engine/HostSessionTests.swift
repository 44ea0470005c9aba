import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateSimulator

/// The host app of seed 000: it logs in with its own OIDC client and pushes ID tokens into a ``HostSession``.
struct HostApp {
    let device: SimulatedDevice

    init(configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws {
        device = try SimulatedDevice(configure: configure)
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

    /// A host session as a launch builds it, over the device's store; the resource endpoint takes security tokens.
    func session() async throws -> HostSession {
        await device.simulator.setResourceTakesSecurityToken(true)
        var configuration = device.configuration
        configuration.sessionSource = .host
        return try HostSession(configuration: configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: device.simulator.transport, clock: device.clock,
            platform: SystemPlatformService(formFactor: "390x844")))
    }

    var resource: HTTPRequest {
        HTTPRequest(method: .get, url: device.world.backendURL.appendingPathComponent("v1/resource/tickets"))
    }

    func accepted() async -> Int {
        await device.simulator.resourceRequests.filter { if case .accepted = $0.bearer { true } else { false } }.count
    }

    func refused() async -> Int {
        await device.simulator.resourceRequests.filter { if case .refused = $0.bearer { true } else { false } }.count
    }
}

/// Collects a session's events so a test can count the notices.
actor EventCounter {
    var events: [HostSessionEvent] = []
    func add(_ event: HostSessionEvent) { events.append(event) }
    func count(_ event: HostSessionEvent) -> Int { events.filter { $0 == event }.count }

    static func start(_ session: HostSession) async -> (EventCounter, Task<Void, Never>) {
        let counter = EventCounter()
        let stream = await session.events()
        let task = Task { for await event in stream { await counter.add(event) } }
        return (counter, task)
    }
}

/// Waits (without a deadline) until `condition` holds, yielding in between.
func eventually(_ condition: () async -> Bool) async {
    while !(await condition()) { await Task.yield() }
}

@Suite("Host mode (seed 000 test scenarios)")
struct HostSessionTests {
    @Test("login: the host's ID token becomes a stored security token; the resource accepts it; relaunch keeps it")
    func login() async throws {
        let app = try HostApp()
        let session = try await app.session()
        #expect(await session.isAuthenticated == false)
        await #expect(throws: HostSessionError.noSession) { _ = try await session.send(app.resource) }
        try await session.updateToken(idToken: try await app.login())
        #expect(await session.phase == .active)
        let response = try await session.send(app.resource)
        #expect(response.status == 200)
        #expect(await app.accepted() == 1)
        let relaunched = try await app.session()
        #expect(await relaunched.isAuthenticated)
        #expect(try await relaunched.send(app.resource).status == 200)
    }

    @Test("the same ID token again is ignored: no second security token is bought")
    func repeatedIDTokenIgnored() async throws {
        let app = try HostApp { $0.maxSecurityTokensPerDevice = 1 }
        let session = try await app.session()
        let idToken = try await app.login()
        try await session.updateToken(idToken: idToken)
        try await session.updateToken(idToken: idToken)
        #expect(await app.device.simulator.requestLog.filter { $0 == "POST /v1/security-token" }.count == 1)
    }

    @Test("an invalid ID token is refused by the same rules as registration; nothing is stored")
    func invalidIDToken() async throws {
        let app = try HostApp()
        let session = try await app.session()
        await app.device.simulator.setIDTokenDefect(.wrongAudience)
        let idToken = try await app.login()
        await #expect(throws: HostSessionError.self) { try await session.updateToken(idToken: idToken) }
        #expect(await session.isAuthenticated == false)
        #expect(await app.device.simulator.requestLog.contains("POST /v1/security-token") == false)
    }

    @Test("expiry online: 1,000 requests rejected, one notice, all held, all retried once with the new token")
    func expiryOnlineThousand() async throws {
        let app = try HostApp()
        let session = try await app.session()
        try await session.updateToken(idToken: try await app.login())
        let (counter, listener) = await EventCounter.start(session)
        defer { listener.cancel() }
        app.device.clock.advance(by: 3601)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1000 { group.addTask { try await session.send(app.resource).status } }
            await eventually { await session.heldRequestCount == 1000 }
            try await session.updateToken(idToken: try await app.login())
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 1000 && statuses.allSatisfy { $0 == 200 })
        await eventually { await counter.events.contains(.active) }
        #expect(await counter.count(.tokenExpired) == 1)
        // Each request went out with the new token exactly once; those that left before the notice were refused once.
        #expect(await app.accepted() == 1000)
        #expect((1...1000).contains(await app.refused()))
    }

    @Test("expiry offline: the request fails with the transport error and the session stays active")
    func expiryOffline() async throws {
        let app = try HostApp()
        let session = try await app.session()
        try await session.updateToken(idToken: try await app.login())
        app.device.clock.advance(by: 3601)
        await app.device.simulator.setOffline(true)
        await #expect(throws: (any Error).self) { _ = try await session.send(app.resource) }
        #expect(await session.phase == .active)
        #expect(await session.isAuthenticated)
    }

    @Test("transient issue: held requests fail offline, the session and its data stay", arguments: TransientIssue.allCases)
    func transientIssue(_ issue: TransientIssue) async throws {
        let app = try HostApp()
        let session = try await app.session()
        try await session.updateToken(idToken: try await app.login())
        app.device.clock.advance(by: 3601)
        let held = Task { try await session.send(app.resource) }
        await eventually { await session.heldRequestCount == 1 }
        await session.notifyTokenRenewalTransientIssue(issue)
        await #expect(throws: HostSessionError.offline(issue)) { _ = try await held.value }
        #expect(await session.phase == .offline(issue))
        #expect(await session.isAuthenticated)
        #expect(((try? app.device.store.keys()) ?? []).contains("host-session"))
        // Within the backoff the host is not asked again.
        await #expect(throws: HostSessionError.offline(issue)) { _ = try await session.send(app.resource) }
        #expect(await session.heldRequestCount == 0)
    }

    @Test("denial: the host logs out, the installation is deleted and storage cleared")
    func denial() async throws {
        let app = try HostApp()
        let session = try await app.session()
        try await session.updateToken(idToken: try await app.login())
        app.device.clock.advance(by: 3601)
        let held = Task { try await session.send(app.resource) }
        await eventually { await session.heldRequestCount == 1 }
        try await session.logout(.ssoDenied)
        await #expect(throws: HostSessionError.loggedOut(.ssoDenied)) { _ = try await held.value }
        #expect(await session.phase == .signedOut)
        #expect(((try? app.device.store.keys()) ?? []).contains("host-session") == false)
    }

    @Test("logout needs a connection, except when every token expired offline")
    func logoutPrecedence() async throws {
        let app = try HostApp()
        let session = try await app.session()
        try await session.updateToken(idToken: try await app.login())
        await app.device.simulator.setOffline(true)
        await #expect(throws: HostSessionError.logoutNeedsConnection) { try await session.logout(.userRequested) }
        #expect(await session.isAuthenticated)
        try await session.logout(.allTokensExpiredOffline)
        #expect(await session.isAuthenticated == false)
    }

    @Test("device limit: 403 TOO_MANY_REGISTERED_DEVICES is typed")
    func deviceLimit() async throws {
        let app = try HostApp { $0.maxDevicesPerUser = 1 }
        try await app.session().updateToken(idToken: try await app.login())
        let other = try HostApp.sharingWorld(with: app)
        await #expect(throws: HostSessionError.tooManyRegisteredDevices) {
            try await other.updateToken(idToken: try await app.login())
        }
    }

    @Test("session limit: 403 MAX_NUMBER_SECURITY_TOKEN is typed")
    func sessionLimit() async throws {
        let app = try HostApp { $0.maxSecurityTokensPerDevice = 1 }
        let session = try await app.session()
        try await session.updateToken(idToken: try await app.login())
        await #expect(throws: HostSessionError.maxSecurityTokens) {
            try await session.updateToken(idToken: try await app.login())
        }
    }

    @Test("forced logout from the backend ends the session and clears storage")
    func forcedLogout() async throws {
        let app = try HostApp()
        let session = try await app.session()
        try await session.updateToken(idToken: try await app.login())
        try await app.device.simulator.forceLogout(email: "alice@example.com")
        await #expect(throws: HostSessionError.forcedLogout) { _ = try await session.send(app.resource) }
        #expect(await session.phase == .signedOut)
        #expect(((try? app.device.store.keys()) ?? []).contains("host-session") == false)
    }

    @Test("a backend rejecting every token: one notice, one renewal, then a typed failure without asking again")
    func rejectingBackend() async throws {
        let app = try HostApp()
        let session = try await app.session()
        try await session.updateToken(idToken: try await app.login())
        let (counter, listener) = await EventCounter.start(session)
        defer { listener.cancel() }
        await app.device.simulator.setResourceRejectsEveryToken(true)
        let first = Task { try await session.send(app.resource) }
        await eventually { await session.heldRequestCount == 1 }
        try await session.updateToken(idToken: try await app.login())
        await #expect(throws: HostSessionError.rejectedAfterRenewal) { _ = try await first.value }
        for _ in 0..<5 {
            await #expect(throws: HostSessionError.rejectedAfterRenewal) { _ = try await session.send(app.resource) }
        }
        await eventually { await counter.events.contains(.active) }
        #expect(await counter.count(.tokenExpired) == 1)
        #expect(await app.device.simulator.requestLog.filter { $0 == "POST /v1/security-token" }.count == 2)
    }

    @Test("cancellation: a cancelled caller stops waiting at once; the others get the renewed token")
    func cancellation() async throws {
        let app = try HostApp()
        let session = try await app.session()
        try await session.updateToken(idToken: try await app.login())
        app.device.clock.advance(by: 3601)
        let cancelled = Task { try await session.send(app.resource) }
        let kept = Task { try await session.send(app.resource) }
        await eventually { await session.heldRequestCount == 2 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { _ = try await cancelled.value }
        #expect(await session.heldRequestCount == 1)
        try await session.updateToken(idToken: try await app.login())
        #expect(try await kept.value.status == 200)
    }
}

extension HostApp {
    /// A second installation in the same world (its own store).
    static func sharingWorld(with app: HostApp) throws -> HostSession {
        var configuration = app.device.configuration
        configuration.sessionSource = .host
        return try HostSession(configuration: configuration, dependencies: RegStateDependencies(
            store: InMemorySecureStore(), journal: InMemoryJournal(), transport: app.device.simulator.transport,
            clock: app.device.clock, platform: SystemPlatformService(formFactor: "390x844")))
    }
}
