import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

/// The rest of issue 20's clock rules: the journal says when the device clock is off (once per significant change,
/// no token in it), a provider without a `Date` header still lets a skewed device register (the fresh ID token's
/// `iat` stands in), and expiry counts from when each token arrived.
@Suite("Device clock: journal note, iat fallback, expiry from receipt")
struct ClockJournalTests {
    /// A service on `device`'s world whose clock is `skew` seconds off the simulator's (positive: ahead).
    static func skewedLaunch(_ device: SimulatedDevice, skew: TimeInterval,
                             transport: (any HTTPTransport)? = nil) -> (RegStateService, ManualClock) {
        let deviceClock = ManualClock(start: device.clock.now().addingTimeInterval(skew))
        let service = RegStateService(configuration: device.configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: transport ?? device.simulator.transport,
            clock: deviceClock, logger: device.logger))
        return (service, deviceClock)
    }

    /// The journal's clock notes, in order.
    static func clockNotes(_ service: RegStateService) async throws -> [(seconds: Int, source: ClockOffsetSource)] {
        try await service.journalEntries().compactMap { entry in
            if case .clockOffsetObserved(let seconds, let source) = entry.event { return (seconds, source) }
            return nil
        }
    }

    @Test("the journal says once that the device clock is off, not again after renewals or a relaunch, and again when it is corrected",
          arguments: [-120.0, 120, -600, 600, -86_400, 86_400])
    func journalNoteOncePerChange(skew: TimeInterval) async throws {
        let device = try SimulatedDevice()
        let (service, deviceClock) = Self.skewedLaunch(device, skew: skew)
        await service.start()
        try await device.signIn(service)
        try await service.confirmRegistration()
        device.clock.advance(by: 7200)
        deviceClock.advance(by: 7200)
        #expect(await service.renewSession().letter == "C")
        var notes = try await Self.clockNotes(service)
        #expect(notes.map(\.seconds) == [Int(-skew)], "provider minus device, once")
        #expect(notes.map(\.source) == [.dateHeader])
        // No token material in the note's line (nor anywhere in the journal).
        let journal = try device.journal.read().lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        let snapshot = try #require(await TokenService(store: device.store, clock: deviceClock).snapshot())
        for secret in [snapshot.accessToken, snapshot.refreshToken, snapshot.idToken].compactMap({ $0 }) {
            #expect(!journal.contains(secret))
        }

        // A relaunch with the same clock: the journal already says it.
        let (relaunched, relaunchedClock) = Self.skewedLaunch(device, skew: skew)
        await relaunched.start()
        device.clock.advance(by: 7200)
        relaunchedClock.advance(by: 7200)
        #expect(await relaunched.renewSession().letter == "C")
        notes = try await Self.clockNotes(relaunched)
        #expect(notes.map(\.seconds) == [Int(-skew)])

        // The user sets the clock right: the journal says the clock is in step again.
        let corrected = device.launch()
        await corrected.start()
        device.clock.advance(by: 7200)
        #expect(await corrected.renewSession().letter == "C")
        notes = try await Self.clockNotes(corrected)
        #expect(notes.map(\.seconds) == [Int(-skew), 0])
    }

    @Test("an offset within the threshold is logged but not journaled")
    func smallOffsetNotJournaled() async throws {
        let device = try SimulatedDevice()
        let (service, _) = Self.skewedLaunch(device, skew: 30)
        await service.start()
        try await device.signIn(service)
        try await service.confirmRegistration()
        #expect(try await Self.clockNotes(service).isEmpty)
        #expect(device.logger.messages(atLeast: .warning).contains { $0.hasPrefix("The device clock is 30 s ahead of") })
    }

    @Test("without a Date header, a skewed device registers and renews: the fresh ID token's iat is the provider's clock",
          arguments: [-120.0, 120, -600, 600, -86_400, 86_400])
    func issueTimeFallback(skew: TimeInterval) async throws {
        let device = try SimulatedDevice { $0.sendsDateHeader = false }
        let (service, deviceClock) = Self.skewedLaunch(device, skew: skew)
        await service.start()
        try await device.signIn(service)
        #expect(try await service.confirmRegistration().activation == .registered)
        _ = try await service.validAccessToken().token
        let notes = try await Self.clockNotes(service)
        #expect(notes.count == 1)
        #expect(notes.first?.source == .idTokenIssueTime)
        #expect(abs((notes.first?.seconds ?? 0) + Int(skew)) <= 1, "notes: \(notes)")
        device.clock.advance(by: 7200)
        deviceClock.advance(by: 7200)
        #expect(await service.renewSession().letter == "C")
        _ = try await service.validAccessToken().token
    }

    @Test("the iat fallback is only for tokens fresh from the token endpoint, and never replaces a Date header estimate")
    func issueTimeFallbackIsNarrow() async throws {
        let device = try SimulatedDevice { $0.sendsDateHeader = false }
        let skewed = ManualClock(start: device.clock.now().addingTimeInterval(-600))
        let client = OIDCClient(configuration: device.configuration.oidc, transport: device.simulator.transport,
                                clock: skewed)
        let request = try await client.makeAuthorizationRequest()
        let callback = try await device.simulator.authorize(request.url, as: "alice@example.com")
        let code = try #require(URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "code" }?.value)
        let idToken = try #require(try await client.exchangeCode(code, for: request).idToken)
        #expect(client.clockEstimate.source == nil)
        // A token handed in from elsewhere (host mode) is checked on the device clock: 600 s in the future.
        await #expect(throws: OIDCError.invalidIDToken(.issuedInFuture)) {
            try await client.validateIDToken(idToken, expectedNonce: request.nonce)
        }
        // A wrong nonce is still refused with the fallback: only the time claims are given another clock.
        await #expect(throws: OIDCError.invalidIDToken(.nonceMismatch)) {
            try await client.validateIDToken(idToken, expectedNonce: "another", freshFromTokenEndpoint: true)
        }
        #expect(client.clockEstimate.source == nil)
        _ = try await client.validateIDToken(idToken, expectedNonce: request.nonce, freshFromTokenEndpoint: true)
        #expect(client.clockEstimate.source == .idTokenIssueTime)
        #expect(abs(client.clockEstimate.offset - 600) <= 1)
        // A Date header later replaces it, and an iat never replaces a Date header's estimate.
        let now = skewed.now()
        client.clockEstimate.observe(HTTPResponse(status: 200, headers: ["Date": ProviderClockEstimate.httpDate(
            now.addingTimeInterval(300))]), at: now)
        #expect(client.clockEstimate.source == .dateHeader)
        #expect(client.clockEstimate.observeIssueTime(now.addingTimeInterval(900), at: now) == nil)
        #expect(client.clockEstimate.offset == 300)
    }

    /// The simulator's transport, with the clock moved `seconds` on whenever `path` is asked: an answer that takes
    /// that long to arrive, as on a slow network.
    static func slowAnswers(_ device: SimulatedDevice, path: String, seconds: TimeInterval) -> RecordingTransport {
        let clock = device.clock
        return RecordingTransport(base: device.simulator.transport) { request, _, base throws(TransportError) in
            if request.url.path == path { clock.advance(by: seconds) }
            return try await base.send(request)
        }
    }

    @Test("the access token's expiry counts from when the token response arrived, not from when it was stored")
    func expiryFromReceipt() async throws {
        let device = try SimulatedDevice()
        let start = device.clock.now()
        // The keys to check the ID token with take five minutes to arrive, after the tokens did.
        let slow = Self.slowAnswers(device, path: "/.well-known/jwks.json",
                               seconds: 300)
        let service = device.launch(transport: slow)
        await service.start()
        try await device.signIn(service)
        let session = try await service.confirmRegistration()
        #expect(session.expiresAt == start.addingTimeInterval(device.world.accessTokenLifetime))
        #expect(device.clock.now() == start.addingTimeInterval(300))
    }

    @Test("the security token's expiry counts from when the backend's grant arrived, not from after the profile update")
    func securityTokenExpiryFromReceipt() async throws {
        let device = try SimulatedDevice()
        let slow = Self.slowAnswers(device, path: "/v1/profile", seconds: 300)
        let service = device.launch(transport: slow)
        await service.start()
        try await device.signIn(service)
        let granted = device.clock.now()
        try await service.confirmRegistration()
        let credentials = try #require(try await TokenService(store: device.store, clock: device.clock).readRecord())
        #expect(credentials.securityTokenExpiresAt == granted.addingTimeInterval(device.world.securityTokenLifetime))
    }
}
