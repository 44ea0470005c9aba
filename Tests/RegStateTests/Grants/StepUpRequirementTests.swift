import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// `max_age` and `acr_values` per login (OIDC Core §3.1.2.1) and the ID token's `auth_time` and `acr` checks
/// (§3.1.3.7 items 12–13): a provider that ignores them yields a typed F, never a session without the assurance.
@Suite("Step-up: max_age and acr_values requested and checked")
struct StepUpRequirementTests {
    static let mfa = "urn:regstate:sim:mfa"

    /// A service over `device` whose configuration asks every login for `requirement`.
    static func service(_ device: SimulatedDevice, requirement: AuthenticationRequirement = .none) -> RegStateService {
        var configuration = device.configuration
        configuration.oidc.authenticationRequirement = requirement
        return RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: device.simulator.transport, clock: device.clock,
            logger: device.logger))
    }

    /// Alice signs in through the simulated browser (which keeps the provider session) and logs out again: the
    /// provider's session stays, signed in at the clock's now.
    static func signedInBrowser(_ device: SimulatedDevice) async throws -> RegStateService {
        let service = device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration()
        _ = try await service.completeSocialRegistration(callback: try await device.simulator.authorizeInBrowser(url, otherwise: "alice@example.com"))
        try await service.confirmRegistration()
        try await service.logout()
        return service
    }

    @Test("Given a per-call requirement, then the URL carries max_age and acr_values, and the credential shows acr and auth_time")
    func parametersAndAssurance() async throws {
        let device = try SimulatedDevice()
        let service = device.launch()
        await service.start()
        let requirement = AuthenticationRequirement(maxAge: 300, acrValues: [Self.mfa], acrRequired: true)
        let url = try await service.beginSocialRegistration(prompt: nil, requirement: requirement)
        let query = FormEncoding.queryItems(of: url)
        #expect(query["max_age"] == "300")
        #expect(query["acr_values"] == Self.mfa)
        #expect(await service.pendingSocialLogin()?.requirement == requirement)
        let signedInAt = device.clock.now()
        device.clock.advance(by: 30)
        try await service.completeSocialRegistration(callback: try await device.simulator.authorize(url, as: "alice@example.com"))
        try await service.confirmRegistration()
        let assurance = try #require(await service.signInAssurance())
        #expect(assurance.acr == Self.mfa)
        #expect(assurance.authenticatedAt.map { abs($0.timeIntervalSince(signedInAt) - 30) < 1 } == true)
        let credential = try await service.validAccessToken()
        #expect(credential.signIn == assurance)
        #expect(!"\(credential)".contains(credential.token))
    }

    @Test("Given the configuration's requirement, then a login without its own carries it; without one nothing is sent")
    func configurationDefault() async throws {
        let device = try SimulatedDevice()
        let service = Self.service(device, requirement: AuthenticationRequirement(maxAge: 60))
        await service.start()
        let url = try await service.beginSocialRegistration()
        #expect(FormEncoding.queryItems(of: url)["max_age"] == "60")
        #expect(FormEncoding.queryItems(of: url)["acr_values"] == nil)
        await service.discardPendingSocialLogin()
        let plain = device.launch()
        await plain.start()
        let other = try await plain.beginSocialRegistration()
        #expect(FormEncoding.queryItems(of: other)["max_age"] == nil)
        #expect(await plain.pendingSocialLogin()?.requirement == nil)
    }

    @Test("Given a provider that honours max_age, when the browser session is older than it, then the user signs in again and auth_time moves")
    func honouringProviderMovesAuthTime() async throws {
        let device = try SimulatedDevice()
        _ = try await Self.signedInBrowser(device)
        device.clock.advance(by: 600)
        let service = device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration(prompt: nil, requirement: AuthenticationRequirement(maxAge: 300))
        try await service.completeSocialRegistration(callback: try await device.simulator.authorizeInBrowser(url, otherwise: "bob@example.com"))
        try await service.confirmRegistration()
        let assurance = try #require(await service.signInAssurance())
        #expect(assurance.authenticatedAt.map { abs($0.timeIntervalSince(device.clock.now())) < 1 } == true)
    }

    @Test("Given a provider that ignores max_age, when its session is older, then F sign_in_too_old and nothing is stored",
          arguments: [SimulatorStepUp.ignores, .omitsAuthTime])
    func ignoringProviderRefused(mode: SimulatorStepUp) async throws {
        let device = try SimulatedDevice { $0.stepUp = mode }
        _ = try await Self.signedInBrowser(device)
        device.clock.advance(by: 600)
        let service = device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration(prompt: nil, requirement: AuthenticationRequirement(maxAge: 300))
        let callback = try await device.simulator.authorizeInBrowser(url, otherwise: "bob@example.com")
        let expected: RegistrationFailure = mode == .omitsAuthTime ? .authTimeMissing : .signInTooOld(authenticatedAt: Date())
        do {
            try await service.completeSocialRegistration(callback: callback)
            Issue.record("a login whose auth_time does not meet max_age was accepted")
        } catch {
            guard case .registration(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.reasonCode == expected.reasonCode)
        }
        #expect(await device.storedRefreshToken() == nil)
        #expect(await service.signInAssurance() == nil)
        guard case .failed = await service.state else { Issue.record("not F"); return }
    }

    @Test("Given a provider that ignores max_age, when its session is within it (plus the leeway), then the login succeeds")
    func withinWindowAccepted() async throws {
        let device = try SimulatedDevice { $0.stepUp = .ignores }
        _ = try await Self.signedInBrowser(device)
        device.clock.advance(by: 330)  // 300 s of max_age plus 30 s, within the 60-s leeway
        let service = device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration(prompt: nil, requirement: AuthenticationRequirement(maxAge: 300))
        try await service.completeSocialRegistration(callback: try await device.simulator.authorizeInBrowser(url, otherwise: "bob@example.com"))
    }

    @Test("Given acr_values required and a provider that ignores them, then F acr_not_accepted; as a wish, the login succeeds")
    func acrRequiredOrWished() async throws {
        for required in [true, false] {
            let device = try SimulatedDevice { $0.stepUp = .ignores }
            let service = device.launch()
            await service.start()
            let requirement = AuthenticationRequirement(acrValues: [Self.mfa], acrRequired: required)
            let url = try await service.beginSocialRegistration(prompt: nil, requirement: requirement)
            let callback = try await device.simulator.authorize(url, as: "alice@example.com")
            do {
                try await service.completeSocialRegistration(callback: callback)
                #expect(!required)
                #expect(await service.signInAssurance()?.acr == "urn:regstate:sim:password")
            } catch {
                #expect(required)
                #expect(error == .registration(.acrNotAccepted("urn:regstate:sim:password")))
            }
        }
    }

    @Test("Given a login begun with max_age and the app killed, when a fresh service takes its redirect, then it is checked against it")
    func requirementSurvivesRelaunch() async throws {
        let device = try FileStoreDevice { $0.stepUp = .ignores }
        defer { device.remove() }
        let first = try device.launch()
        await first.start()
        let signIn = try await first.beginSocialRegistration()
        _ = try await first.completeSocialRegistration(callback: try await device.simulator.authorizeInBrowser(signIn, otherwise: "alice@example.com"))
        try await first.confirmRegistration()
        try await first.logout()
        device.clock.advance(by: 600)
        let url = try await first.beginSocialRegistration(prompt: nil, requirement: AuthenticationRequirement(maxAge: 300))
        #expect(try #require(try device.record()).requirement?.maxAge == 300)
        let callback = try await device.simulator.authorizeInBrowser(url, otherwise: "alice@example.com")
        let relaunched = try device.launch()
        await relaunched.start()
        #expect(await relaunched.pendingSocialLogin()?.requirement?.maxAge == 300)
        do {
            try await relaunched.completeSocialRegistration(callback: callback)
            Issue.record("the relaunched service forgot the login's max_age")
        } catch {
            guard case .registration(.signInTooOld) = error else { Issue.record("\(error)"); return }
        }
    }

    @Test("A pending login of the previous format (no requirement member) reads as asking for nothing and finishes")
    func previousFormatReads() async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        let service = try device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration()
        // A login that asks for nothing is written as before: no new member.
        let written = try #require(FileManager.default.contents(atPath: device.recordURL.path))
        #expect(!String(decoding: written, as: UTF8.self).contains("requirement"))
        let issuedAt = device.clock.now()
        let old = PushedAuthorizationRelaunchTests.recordBeforePAR(
            url: url, issuedAt: issuedAt, issuer: device.world.world.issuerIdentifier, clientID: device.world.world.clientID)
        try old.write(to: device.recordURL)
        let relaunched = try device.launch()
        await relaunched.start()
        let pending = try #require(await relaunched.pendingSocialLogin())
        #expect(pending.requirement == nil)
        #expect(pending.authorizationURL == url)
    }
}
