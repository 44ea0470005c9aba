import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

/// The device authorization grant (RFC 8628) end to end against the simulator: the code shown, the polls on the
/// clock seam at the pace the provider allows, the endings (approved, denied, expired, cancelled), a relaunch that
/// resumes the same authorization, and the device code kept out of everything the engine writes or says.
@Suite("Device authorization grant")
struct DeviceAuthorizationGrantTests {
    /// A world whose clock moves on by every wait the engine makes, so polling runs without sleeping.
    static func device(_ configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws -> SimulatedDevice {
        try SimulatedDevice(clock: ManualClock(advancesWhileSleeping: true), configure: configure)
    }

    /// The gaps, in seconds, between consecutive polls.
    static func gaps(_ polls: [Date]) -> [TimeInterval] {
        zip(polls.dropFirst(), polls).map { $0.timeIntervalSince($1) }
    }

    @Test("Given D, when the user approves after two pending polls, then G then H, polls 5 s apart, one token answer")
    func approvedAfterPendingPolls() async throws {
        let device = try Self.device()
        let service = device.launch()
        #expect(await service.start() == .registrationRequired)
        let events = await service.events()
        let shown = try await service.beginDeviceRegistration()
        #expect(shown.verificationURI.absoluteString.hasSuffix("/activate"))
        #expect(shown.verificationURIComplete?.absoluteString.contains(shown.userCode) == true)
        #expect(shown.interval == 5)
        #expect(shown.expiresAt == device.clock.now().addingTimeInterval(600))
        #expect(await service.state == .authenticating(.device))
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com", afterPolls: 2)
        let profile = try await service.completeDeviceRegistration()
        #expect(profile.email == "dana@example.com")
        #expect(await service.state == .awaitingConfirmation(profile))
        try await service.confirmRegistration()
        #expect(await service.state.letter == "H")
        let polls = await device.simulator.devicePolls(userCode: shown.userCode)
        #expect(polls.count == 3)
        #expect(Self.gaps(polls) == [5, 5])
        #expect(await device.simulator.deviceTokenAnswers(userCode: shown.userCode) == 1)
        #expect(await device.simulator.isRegistered(email: "dana@example.com"))
        #expect(await service.pendingDeviceRegistration() == nil)
        var seen: [String] = []
        for await event in events {
            seen.append(event.title)
            if event.letter == "H" { break }
        }
        #expect(seen == ["Registration Required D", "Awaiting User", "Awaiting Confirmation G", "Active H"])
    }

    @Test("Given slow_down twice, then each later poll waits 5 s more: the fewest polls the RFC allows")
    func slowDownWidensEveryLaterPoll() async throws {
        let device = try Self.device()
        let service = device.launch()
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.slowDownDevicePolls(userCode: shown.userCode, count: 2)
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com", afterPolls: 2)
        _ = try await service.completeDeviceRegistration()
        let polls = await device.simulator.devicePolls(userCode: shown.userCode)
        // slow_down at 0 s (interval 10), slow_down at 10 s (interval 15), pending at 25 and 40 s, tokens at 55 s:
        // every gap is the interval in force, never more, never less.
        #expect(Self.gaps(polls) == [10, 15, 15, 15])
        #expect(polls.count == 5)
    }

    @Test("Given no interval in the answer, then the polls wait RFC 8628's default 5 s, and no complete URI is shown")
    func defaultInterval() async throws {
        let device = try Self.device { $0.deviceInterval = nil; $0.sendsVerificationURIComplete = false }
        let service = device.launch()
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        #expect(shown.interval == 5)
        #expect(shown.verificationURIComplete == nil)
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com", afterPolls: 1)
        _ = try await service.completeDeviceRegistration()
        #expect(Self.gaps(await device.simulator.devicePolls(userCode: shown.userCode)) == [5])
    }

    @Test("Given the user denies, then F access_denied and nothing is kept")
    func denied() async throws {
        let device = try Self.device()
        let service = device.launch()
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.denyDeviceAuthorization(userCode: shown.userCode, afterPolls: 1)
        await #expect(throws: RegStateServiceError.registration(.authorizationDenied(error: "access_denied",
                                                                                  description: "The user denied the request."))) {
            try await service.completeDeviceRegistration()
        }
        #expect(await service.state.letter == "F")
        #expect(try device.store.data(forKey: PendingDeviceAuthorization.storeKey) == nil)
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
    }

    @Test("Given the user never approves, then F code_expired, no poll at or after the expiry, nothing stored")
    func expires() async throws {
        let device = try Self.device { $0.deviceCodeLifetime = 32 }
        let service = device.launch()
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        await #expect(throws: RegStateServiceError.registration(.codeExpired)) {
            try await service.completeDeviceRegistration()
        }
        let polls = await device.simulator.devicePolls(userCode: shown.userCode)
        #expect(polls.count == 7)  // 0, 5, …, 30: the next would be at 35, past the expiry at 32
        #expect(polls.allSatisfy { $0 < shown.expiresAt })
        #expect(try device.store.data(forKey: PendingDeviceAuthorization.storeKey) == nil)
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
        #expect(await service.state == .failed(.registration(.codeExpired)))
    }

    @Test("Given expired_token from the provider, then F code_expired")
    func expiredTokenAnswer() async throws {
        let device = try Self.device()
        let service = device.launch()
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.expireDeviceAuthorization(userCode: shown.userCode)
        await #expect(throws: RegStateServiceError.registration(.codeExpired)) {
            try await service.completeDeviceRegistration()
        }
    }

    @Test("Given a relaunch while the user approves, then the new process resumes the same authorization; a second begin starts none")
    func relaunchResumes() async throws {
        let device = try Self.device()
        let first = device.launch()
        await first.start()
        let shown = try await first.beginDeviceRegistration()
        // The process dies; another one sharing the store starts.
        let second = device.launch()
        #expect(await second.start() == .registrationRequired)
        #expect(await second.pendingDeviceRegistration() == shown)
        #expect(try await second.beginDeviceRegistration() == shown)
        #expect(await device.simulator.deviceUserCodes == [shown.userCode])
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com")
        let relaunched = device.launch()
        await relaunched.start()
        let profile = try await relaunched.completeDeviceRegistration()
        #expect(profile.email == "dana@example.com")
        #expect(await device.simulator.deviceTokenAnswers(userCode: shown.userCode) == 1)
    }

    @Test("Given the provider offers no device endpoint, then F device_authorization_not_offered; a configured one is used")
    func notOfferedAndConfigured() async throws {
        let device = try Self.device { $0.offersDeviceAuthorization = false }
        let service = device.launch()
        await service.start()
        await #expect(throws: RegStateServiceError.registration(.grantNotOffered(.deviceAuthorization))) {
            try await service.beginDeviceRegistration()
        }
        // Discovery is silent, but the app knows where the endpoint is.
        await device.simulator.setDeviceAuthorization(offered: true)
        var configuration = device.configuration
        configuration.oidc.deviceAuthorizationEndpoint = URL(string: device.world.issuer.absoluteString + "/oauth/device/code")
        let configured = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: device.simulator.transport, clock: device.clock,
            platform: SystemPlatformService(formFactor: "390x844"), logger: device.logger))
        await configured.start()
        #expect(try await configured.beginDeviceRegistration().userCode.count == 9)
    }

    @Test("Given the provider down for a while, then the polls back off and go on until the user approves")
    func transientFailuresBackOff() async throws {
        let device = try Self.device()
        let service = device.launch()
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com")
        await device.simulator.setOffline(true)
        let started = device.clock.now()
        let poll = Task { try await service.completeDeviceRegistration() }
        // Offline: the polls fail (no connection) and wait 10, 20, 40, 60 s…; the network comes back meanwhile.
        while device.clock.now().timeIntervalSince(started) < 100 { await Task.yield() }
        await device.simulator.setOffline(false)
        let profile = try await poll.value
        #expect(profile.email == "dana@example.com")
        #expect(await device.simulator.devicePolls(userCode: shown.userCode).count == 1)
    }

    @Test("Given a 503 with Retry-After: 30 on a poll, then the next poll waits 30 s, not the shorter backoff")
    func retryAfterHonoured() async throws {
        let device = try Self.device()
        let clock = device.clock
        let polls = LockedValue<[Date]>([])
        let transport = RecordingTransport(base: device.simulator.transport) { request, _, base throws(TransportError) in
            if request.method == .post, let body = request.body,
               String(decoding: body, as: UTF8.self).contains("device_code=") {
                let count = polls.withLock { polls in
                    polls.append(clock.now())
                    return polls.count
                }
                if count <= 2 { return HTTPResponse(status: 503, headers: ["Retry-After": "30"]) }
            }
            return try await base.send(request)
        }
        let service = device.launch(transport: transport)
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com")
        let profile = try await service.completeDeviceRegistration()
        #expect(profile.email == "dana@example.com")
        let times = polls.withLock { $0 }
        #expect(times.count == 3)
        // Without Retry-After the backoff would be 10 s, then 20 s.
        #expect(Self.gaps(times).allSatisfy { $0 >= 30 }, "\(Self.gaps(times))")
    }

    @Test("Given the app cancels while polling, then the polling stops at once, D, and the authorization is forgotten")
    func cancelStopsPolling() async throws {
        // A clock that does not move by itself: the poll waits its interval for real, and the cancel ends that wait.
        let device = try SimulatedDevice()
        let service = device.launch()
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        let poll = Task { try await service.completeDeviceRegistration() }
        while await device.simulator.devicePolls(userCode: shown.userCode).isEmpty { await Task.yield() }
        await service.cancelDeviceRegistration()
        await #expect(throws: RegStateServiceError.cancelled) { try await poll.value }
        #expect(await service.state == .registrationRequired)
        #expect(await device.simulator.devicePolls(userCode: shown.userCode).count == 1)
        #expect(try device.store.data(forKey: PendingDeviceAuthorization.storeKey) == nil)
    }

    @Test("Given DPoP, then every poll carries a proof and the tokens are bound to the registration's key")
    func dpopBoundTokens() async throws {
        let device = try Self.device { $0.dpop = .required }
        var configuration = device.configuration
        configuration.dpop = .required
        let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: device.simulator.transport, clock: device.clock,
            platform: SystemPlatformService(formFactor: "390x844"), logger: device.logger))
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com", afterPolls: 1)
        _ = try await service.completeDeviceRegistration()
        try await service.confirmRegistration()
        let credential = try await service.validAccessToken()
        #expect(credential.isDPoPBound)
    }

    @Test("The device code is in no journal line, no log line and no description")
    func deviceCodeNeverWritten() async throws {
        let device = try Self.device()
        let service = device.launch()
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        let stored = try #require(try device.store.data(forKey: PendingDeviceAuthorization.storeKey))
        let record = try RecordedTime.decoder().decode(PendingDeviceAuthorization.self, from: stored)
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com", afterPolls: 1)
        _ = try await service.completeDeviceRegistration()
        try await service.confirmRegistration()
        let journal = try await service.journalEntries().map { String(decoding: try $0.encoded(), as: UTF8.self) }.joined()
        #expect(!journal.contains(record.deviceCode))
        #expect(!journal.contains(shown.userCode))
        #expect(!device.logger.messages().joined().contains(record.deviceCode))
        #expect(!"\(record)".contains(record.deviceCode))
        #expect(!String(reflecting: record).contains(record.deviceCode))
        var dumped = ""
        dump(record, to: &dumped)
        #expect(!dumped.contains(record.deviceCode))
        #expect("\(SecretInput.deviceVerification(shown))" == "deviceVerification(redacted)")
    }
}
