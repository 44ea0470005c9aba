import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// The step-up grant: begun from the API's challenge, finished by its redirect (also after a kill), the same user
/// required (another user leaves the session byte for byte as it was), the new tokens in one write, the session usable
/// while pending, cancel leaving it as it was.
@Suite("Step-up: the grant")
struct StepUpGrantTests {
    static let payments = URL(string: "https://api.regstate.sim/v1/resource/payments")!
    static let profile = URL(string: "https://api.regstate.sim/v1/resource/profile")!
    static let policy = TokenPolicy(validatingURLs: [URL(string: "https://api.regstate.sim/v1/resource")!])

    /// A registered device whose API demands a sign-in within 300 s for payments, 600 s after alice signed in.
    static func device(_ configure: (inout SimulatorConfiguration) -> Void = { _ in }) async throws
        -> (FileStoreDevice, RegStateService)
    {
        let device = try FileStoreDevice(configure: configure)
        let service = try device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration()
        try await service.completeSocialRegistration(callback: try await device.simulator.authorizeInBrowser(url, otherwise: "alice@example.com"))
        try await service.confirmRegistration()
        await device.simulator.demandSignIn(AuthenticationRequirement(maxAge: 300), atResourcesUnder: "/v1/resource/payments")
        device.clock.advance(by: 600)
        await device.simulator.resetCounters()
        return (device, service)
    }

    static func challenge(_ device: FileStoreDevice, _ service: RegStateService) async throws -> StepUpChallenge {
        do {
            _ = try await AuthorizedTransport(base: device.simulator.transport, service: service, policy: policy)
                .send(HTTPRequest(method: .get, url: payments))
        } catch {
            if case .stepUpRequired(let challenge) = error { return challenge }
            throw error
        }
        throw RegStateServiceError.noSession
    }

    static func credentialsBytes(_ device: FileStoreDevice) -> Data? {
        FileManager.default.contents(atPath: device.secure.appendingPathComponent(TokenService.credentialsKey).path)
    }

    @Test("Given the API's challenge, when the same user steps up, then auth_time moves, the call succeeds and no refresh-token grant was made")
    func stepUpEndToEnd() async throws {
        let (device, service) = try await Self.device()
        defer { device.remove() }
        let transport = AuthorizedTransport(base: device.simulator.transport, service: service, policy: Self.policy)
        let before = try #require(await service.signInAssurance()?.authenticatedAt)
        let challenge = try await Self.challenge(device, service)
        let url = try await service.beginStepUp(requirement: challenge.requirement)
        #expect(FormEncoding.queryItems(of: url)["max_age"] == "300")
        #expect(await service.pendingStepUp() == AuthenticationRequirement(maxAge: 300))
        // The session keeps working for calls that do not need the step-up.
        #expect(try await transport.send(HTTPRequest(method: .get, url: Self.profile)).status == 200)
        let callback = try await device.simulator.authorizeInBrowser(url, otherwise: "bob@example.com")  // asked again: alice
        let assurance = try await service.completeStepUp(callback: callback)
        #expect(try #require(assurance.authenticatedAt) > before.addingTimeInterval(500))
        let retried = try await transport.send(HTTPRequest(method: .get, url: Self.payments))
        #expect(retried.status == 200)
        let subjects = await device.simulator.resourceRequests.compactMap { request -> String? in
            if case .accepted(let subject) = request.bearer { return subject } else { return nil }
        }
        #expect(Set(subjects).count == 1)
        #expect(await device.simulator.refreshGrantCount == 0)
        #expect(await service.pendingStepUp() == nil)
        #expect(await service.state.letter == "C")
    }

    @Test("Given a step-up, when another user signs in, then it is refused and the session's record is byte-identical")
    func anotherUserRefused() async throws {
        let (device, service) = try await Self.device()
        defer { device.remove() }
        let before = try #require(Self.credentialsBytes(device))
        let journal = device.journalText()
        let url = try await service.beginStepUp(requirement: (try await Self.challenge(device, service)).requirement)
        let callback = try await device.simulator.authorize(url, as: "mallory@example.com")
        await #expect(throws: RegStateServiceError.registration(.anotherUser)) {
            try await service.completeStepUp(callback: callback)
        }
        #expect(Self.credentialsBytes(device) == before)
        #expect(device.journalText() == journal)
        #expect(await service.state.letter == "H")
        guard case .active(let session) = await service.state else { Issue.record("not active"); return }
        #expect(session.profile?.email == "alice@example.com")
    }

    @Test("Given a pending step-up, a forged redirect is refused and the genuine one still finishes it, after a kill too")
    func forgedRedirectAndKill() async throws {
        let (device, first) = try await Self.device()
        defer { device.remove() }
        let url = try await first.beginStepUp(requirement: (try await Self.challenge(device, first)).requirement)
        let genuine = try await device.simulator.authorize(url, as: "alice@example.com")
        var forged = try #require(URLComponents(url: genuine, resolvingAgainstBaseURL: false))
        forged.queryItems = forged.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        await #expect(throws: RegStateServiceError.registration(.stateMismatch)) {
            try await first.completeStepUp(callback: try #require(forged.url))
        }
        let relaunched = try device.launch()
        await relaunched.start()
        #expect(await relaunched.pendingStepUp() == AuthenticationRequirement(maxAge: 300))
        try await relaunched.completeStepUp(callback: genuine)
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) {
            try await relaunched.completeStepUp(callback: genuine)
        }
    }

    @Test("Given a pending step-up, cancelling leaves the session as it was and its redirect is refused")
    func cancelLeavesSession() async throws {
        let (device, service) = try await Self.device()
        defer { device.remove() }
        let before = try #require(Self.credentialsBytes(device))
        let url = try await service.beginStepUp(requirement: AuthenticationRequirement(maxAge: 300))
        await service.cancelStepUp()
        #expect(await service.pendingStepUp() == nil)
        #expect(Self.credentialsBytes(device) == before)
        let callback = try await device.simulator.authorize(url, as: "alice@example.com")
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) {
            try await service.completeStepUp(callback: callback)
        }
        #expect(Self.credentialsBytes(device) == before)
    }

    @Test("Given a provider that ignores max_age, the step-up is refused (sign_in_too_old) and the session is byte-identical")
    func ignoringProvider() async throws {
        let (device, service) = try await Self.device { $0.stepUp = .ignores }
        defer { device.remove() }
        let before = try #require(Self.credentialsBytes(device))
        let url = try await service.beginStepUp(requirement: (try await Self.challenge(device, service)).requirement)
        let callback = try await device.simulator.authorizeInBrowser(url, otherwise: "alice@example.com")
        do {
            try await service.completeStepUp(callback: callback)
            Issue.record("a step-up whose auth_time is too old was accepted")
        } catch {
            guard case .registration(.signInTooOld) = error else { Issue.record("\(error)"); return }
        }
        #expect(Self.credentialsBytes(device) == before)
    }

    @Test("Without an active session there is nothing to step up")
    func noSession() async throws {
        let device = try SimulatedDevice()
        let service = device.launch()
        await service.start()
        await #expect(throws: RegStateServiceError.noSession) {
            try await service.beginStepUp(requirement: AuthenticationRequirement(maxAge: 60))
        }
    }
}
