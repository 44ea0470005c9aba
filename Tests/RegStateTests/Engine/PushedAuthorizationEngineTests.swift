import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// A simulated device whose engine has a chosen ``PushedAuthorizationMode`` (and DPoP mode) against a simulator
/// offering PAR as told.
struct PARDevice {
    let device: SimulatedDevice
    let mode: PushedAuthorizationMode
    let dpop: DPoPMode

    init(mode: PushedAuthorizationMode = .whenOffered, dpop: DPoPMode = .off,
         configure: (inout SimulatorConfiguration) -> Void) throws {
        device = try SimulatedDevice(configure: configure)
        self.mode = mode
        self.dpop = dpop
    }

    var simulator: Simulator { device.simulator }

    func launch() -> RegStateService {
        var configuration = device.configuration
        configuration.oidc.pushedAuthorization = mode
        configuration.dpop = dpop
        return RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: device.simulator.transport, clock: device.clock,
            platform: SystemPlatformService(formFactor: "390x844"), logger: device.logger))
    }

    func pushes() async -> Int { await simulator.requestLog.filter { $0 == "POST /par" }.count }

    /// The F reason the service is in, if it is in F.
    static func failure(of service: RegStateService) async -> RegistrationFailure? {
        guard case .failed(.registration(let reason)) = await service.state else { return nil }
        return reason
    }
}

@Suite("Engine: pushed authorization requests (RFC 9126)")
struct PushedAuthorizationEngineTests {
    /// What a registration does for one pair of client and provider settings.
    enum Outcome: Sendable { case pushed, plain, unavailable }

    static let table: [(PushedAuthorizationMode, SimulatorPushedAuthorization, Outcome)] = [
        (.off, .off, .plain), (.off, .offered, .plain), (.off, .required, .unavailable),
        (.whenOffered, .off, .plain), (.whenOffered, .offered, .pushed), (.whenOffered, .required, .pushed),
        (.required, .off, .unavailable), (.required, .offered, .pushed), (.required, .required, .pushed),
    ]

    @Test("Every pair of client mode and provider offer: pushed, plain, or a typed F before anything is sent",
          arguments: table)
    func modeTable(mode: PushedAuthorizationMode, provider: SimulatorPushedAuthorization, outcome: Outcome) async throws {
        let device = try PARDevice(mode: mode) { $0.pushedAuthorization = provider }
        let service = device.launch()
        #expect(await service.start() == .registrationRequired)
        switch outcome {
        case .unavailable:
            await #expect(throws: RegStateServiceError.self) { _ = try await service.beginSocialRegistration() }
            guard case .pushedAuthorizationUnavailable = await PARDevice.failure(of: service) else {
                Issue.record("expected F pushed_authorization_unavailable, got \(await service.state)")
                return
            }
            #expect(await device.pushes() == 0)
            #expect(await service.pendingSocialLogin() == nil)
        case .pushed, .plain:
            let url = try await service.beginSocialRegistration()
            let names = Set(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? [])
            if outcome == .pushed {
                #expect(names == ["client_id", "request_uri"])
                #expect(await device.pushes() == 1)
                #expect(await service.pendingSocialLogin()?.authorizationURLExpiresAt != nil)
            } else {
                #expect(names.isSuperset(of: ["code_challenge", "state", "nonce", "redirect_uri"]))
                #expect(await device.pushes() == 0)
                #expect(await service.pendingSocialLogin()?.authorizationURLExpiresAt == nil)
            }
            let callback = try await device.simulator.authorize(url, as: "alice@example.com")
            try await service.completeSocialRegistration(callback: callback)
            let session = try await service.confirmRegistration()
            #expect(session.activation == .registered)
        }
    }

    @Test("A refused push is F pushed_authorization_refused carrying the provider's code; nothing is pending",
          arguments: ["invalid_request", "invalid_client", "unauthorized_client", "access_denied"])
    func refusal(code: String) async throws {
        let device = try PARDevice { $0.pushedAuthorization = .offered; $0.pushedAuthorizationRefusal = code }
        let service = device.launch()
        await service.start()
        await #expect(throws: RegStateServiceError.self) { _ = try await service.beginSocialRegistration() }
        guard case .pushedAuthorizationRefused(let error, _) = await PARDevice.failure(of: service) else {
            Issue.record("expected F pushed_authorization_refused, got \(await service.state)")
            return
        }
        #expect(error == code)
        #expect(await service.pendingSocialLogin() == nil)
        // The provider relents: the next attempt pushes and registers.
        await device.simulator.setPushedAuthorizationRefusal(nil)
        try await device.device.signIn(service)
        #expect(try await service.confirmRegistration().activation == .registered)
    }

    @Test("DPoP on: the push carries a proof (no dpop_jkt in the browser), and the tokens are bound to the key")
    func pushWithDPoP() async throws {
        let device = try PARDevice(dpop: .whenOffered) { $0.pushedAuthorization = .required; $0.dpop = .required }
        let service = device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration()
        #expect(!url.absoluteString.contains("dpop_jkt"))
        let callback = try await device.simulator.authorize(url, as: "alice@example.com")
        try await service.completeSocialRegistration(callback: callback)
        try await service.confirmRegistration()
        let data = try #require(try device.device.store.data(forKey: TokenService.credentialsKey))
        let record = try #require(try JSONValue.parse(data).objectValue)
        #expect(record["dpop_jkt"]?.stringValue?.isEmpty == false)
    }

    @Test("DPoP required by the provider and off in the engine: the push is refused with invalid_dpop_proof")
    func pushWithoutRequiredProof() async throws {
        let device = try PARDevice(dpop: .off) { $0.pushedAuthorization = .offered; $0.dpop = .required }
        let service = device.launch()
        await service.start()
        await #expect(throws: RegStateServiceError.self) { _ = try await service.beginSocialRegistration() }
        #expect(await PARDevice.failure(of: service) == .pushedAuthorizationRefused(
            error: "invalid_dpop_proof", description: "A DPoP proof is required."))
    }

    @Test("A pushed URL past expires_in is never reopened: reopenSocialLogin begins again; before, it returns the same URL")
    func expiredRequestURIBeginsAgain() async throws {
        let device = try PARDevice { $0.pushedAuthorization = .offered; $0.pushedRequestLifetime = 30 }
        let service = device.launch()
        await service.start()
        let first = try await service.beginSocialRegistration()
        #expect(try await service.reopenSocialLogin() == first)
        #expect(await device.pushes() == 1)
        device.device.clock.advance(by: 31)
        let pending = try #require(await service.pendingSocialLogin())
        #expect(pending.isAuthorizationURLExpired)
        #expect(!pending.isExpired)                      // the login itself could still take its redirect
        let second = try await service.reopenSocialLogin()
        #expect(second != first)
        #expect(await device.pushes() == 2)
        await #expect(throws: SimulatorError.invalidRequestURI) {
            _ = try await device.simulator.authorize(first, as: "alice@example.com")
        }
        let callback = try await device.simulator.authorize(second, as: "alice@example.com")
        try await service.completeSocialRegistration(callback: callback)
        #expect(try await service.confirmRegistration().activation == .registered)
    }

    @Test("A PAR endpoint that is not https (nor loopback) makes discovery refused: nothing is pushed to it")
    func insecureEndpointRefused() async throws {
        let device = try PARDevice {
            $0.pushedAuthorization = .offered
            $0.discoveryOverrides["pushed_authorization_request_endpoint"] = "http://par.attacker.example/par"
        }
        let service = device.launch()
        await service.start()
        await #expect(throws: RegStateServiceError.self) { _ = try await service.beginSocialRegistration() }
        #expect(await PARDevice.failure(of: service) == .discoveryFailed("not https: pushed_authorization_request_endpoint"))
        #expect(await device.simulator.requestLog.allSatisfy { !$0.contains("/par") })
    }
}
