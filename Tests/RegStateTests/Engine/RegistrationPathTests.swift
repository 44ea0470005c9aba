import Foundation
import Testing
@testable import RegState
import RegStateTesting
import RegStateSimulator
import RegStateTestSupport

@Suite("Registration paths: G, H, Retry, F")
struct RegistrationPathTests {
    @Test("social: D, authorization URL with PKCE/state/nonce, redirect, G with the profile, Confirm, H, backend registered")
    func socialToH() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        var tape = await EventTape(service)
        await service.start()
        let url = try await service.beginSocialRegistration()
        let query = FormEncoding.queryItems(of: url)
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["state"] != nil && query["nonce"] != nil && query["code_challenge"] != nil)
        let profile = try await service.completeSocialRegistration(callback: try await harness.simulator.authorize(url, as: "alice@example.com"))
        #expect(profile.email == "alice@example.com")
        #expect(await service.state == .awaitingConfirmation(profile))
        let session = try await service.confirmRegistration()
        #expect(session.activation == .registered)
        #expect(session.registrationType == .social)
        #expect(await tape.next(3) == ["Registration Required D", "Awaiting Confirmation G", "Active H"])
        #expect(await harness.simulator.isRegistered(email: "alice@example.com"))
        #expect(await harness.simulator.registeredInstallationCount(for: "alice@example.com") == 1)
    }

    @Test("passwordless: code to the inbox, verified, G, Confirm, H as PASSWORDLESS")
    func passwordlessToH() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        var tape = await EventTape(service)
        await service.start()
        try await service.beginPasswordlessRegistration(email: "carol@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "carol@example.com"))
        let profile = try await service.completePasswordlessRegistration(code: code)
        #expect(profile.email == "carol@example.com")
        let session = try await service.confirmRegistration()
        #expect(session.registrationType == .passwordless)
        #expect(await tape.next(3) == ["Registration Required D", "Awaiting Confirmation G", "Active H"])
    }

    @Test("Retry on G clears the provisional tokens and returns to D; a relaunch finds nothing")
    func retryReturnsToD() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        try await harness.signIn(service, as: "alice@example.com")
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) != nil)
        try await service.retryRegistration()
        #expect(await service.state == .registrationRequired)
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == nil)
        #expect(await harness.launch().start() == .registrationRequired)
    }

    @Test("an app killed on the confirmation page relaunches to D, not to a session")
    func provisionalIsNotASession() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        try await harness.signIn(service, as: "alice@example.com")
        #expect(await harness.launch().start() == .registrationRequired)
    }

    // MARK: Bad input: each is F with its own reason, nothing stored, and the app can start again.

    enum BadCallback: String, CaseIterable, Sendable {
        case wrongState, missingState, denied, wrongIssuer, otherRedirect, noCode
    }

    @Test("a bad callback is F with its reason and stores nothing; a forged one leaves the login, a denial ends it", arguments: BadCallback.allCases)
    func badCallback(_ kind: BadCallback) async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        let url = try await service.beginSocialRegistration()
        let good = try await harness.simulator.authorize(url, as: "alice@example.com")
        var components = try #require(URLComponents(url: good, resolvingAgainstBaseURL: false))
        let expected: RegistrationFailure
        switch kind {
        case .wrongState:
            components.queryItems = components.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
            expected = .stateMismatch
        case .missingState:
            components.queryItems = components.queryItems?.filter { $0.name != "state" }
            expected = .stateMismatch
        case .denied:
            components = try #require(URLComponents(url: try await harness.simulator.deny(url), resolvingAgainstBaseURL: false))
            expected = .authorizationDenied(error: "access_denied", description: "The user denied the request.")
        case .wrongIssuer:
            components.queryItems = components.queryItems?.map { $0.name == "iss" ? URLQueryItem(name: "iss", value: "https://evil.example") : $0 }
            expected = .issuerMismatchInCallback
        case .otherRedirect:
            components.scheme = "com.attacker.app"
            expected = .malformedCallback("wrong scheme")
        case .noCode:
            components.queryItems = components.queryItems?.filter { $0.name != "code" }
            expected = .malformedCallback("no code")
        }
        let callback = try #require(components.url)
        let error = await #expect(throws: RegStateServiceError.self) { try await service.completeSocialRegistration(callback: callback) }
        #expect(error == .registration(expected), "each bad callback has its exact reason")
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == nil)
        if expected.keepsAttempt(of: .authorizationCode) {
            // Issue 27: a redirect that is not this login's is refused and the login waits for its genuine one.
            #expect(await service.state == .authenticating(.social))
            _ = try await service.completeSocialRegistration(callback: good)
        } else {
            #expect(await service.state == .failed(.registration(expected)))
            // The app can start again.
            try await harness.signIn(service, as: "alice@example.com")
        }
        #expect(await service.state.letter == "G")
    }

    @Test("a replayed callback is F (no login pending) and changes nothing")
    func replayedCallback() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        var tape = await EventTape(service)
        await service.start()
        let url = try await service.beginSocialRegistration()
        let callback = try await harness.simulator.authorize(url, as: "alice@example.com")
        let profile = try await service.completeSocialRegistration(callback: callback)
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) {
            try await service.completeSocialRegistration(callback: callback)
        }
        #expect(await service.state == .awaitingConfirmation(profile))
        #expect(await tape.next(3) == ["Registration Required D", "Awaiting Confirmation G", "Error F"])
    }

    @Test("a second login started while one is pending is F, and the pending one is dead")
    func secondLoginWhilePending() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        let first = try await service.beginSocialRegistration()
        await #expect(throws: RegStateServiceError.registration(.loginAlreadyInProgress)) {
            _ = try await service.beginPasswordlessRegistration(email: "alice@example.com")
        }
        let late = try await harness.simulator.authorize(first, as: "alice@example.com")
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) { try await service.completeSocialRegistration(callback: late) }
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == nil)
    }

    @Test("an ID token that fails validation is F with the check that failed, nothing is stored, and the app can start again",
          arguments: IDTokenDefect.registrationDefects)
    func badIDToken(_ defect: IDTokenDefect) async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        await harness.simulator.setIDTokenDefect(defect)
        let error = await #expect(throws: RegStateServiceError.self) { try await harness.signIn(service, as: "alice@example.com") }
        guard case .registration(.invalidIDToken(let reason))? = error else {
            Issue.record("expected an invalid ID token, got \(String(describing: error))")
            return
        }
        let expected: IDTokenError = switch defect {
        case .badSignature: .invalidSignature
        case .algNone: .unsupportedAlgorithm("none")
        case .wrongAudience: .audienceMismatch
        case .wrongIssuer: .issuerMismatch(expected: "https://idp.regstate.sim", found: IDTokenDefect.wrongIssuerValue)
        case .expired: .expired(at: Date(timeIntervalSince1970: harness.clock.now().timeIntervalSince1970.rounded(.down) - 600))
        case .wrongNonce: .nonceMismatch
        case .otherKey: .invalidSignature
        case .wrongAuthorizedParty: .authorizedPartyMismatch
        case .otherSubject: .refreshedIdentityMismatch  // not in registrationDefects: a valid sign-in token
        case .duplicateHeaderAlgorithm: .invalidJWT(.invalidJSON(.header, .duplicateMember("alg")))
        case .duplicateClaim: .invalidJWT(.invalidJSON(.payload, .duplicateMember("sub")))
        case .longSubject: .invalidSubject
        case .untrustedAudience: .untrustedAudience
        }
        #expect(reason == expected.errorDescription)
        #expect(await service.state == .failed(.registration(.invalidIDToken(reason))))
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == nil)
        // The app can start again: with an honest provider the same service reaches G.
        await harness.simulator.setIDTokenDefect(nil)
        try await harness.signIn(service, as: "alice@example.com")
        #expect(await service.state.letter == "G")
    }

    @Test("passwordless codes: wrong and expired are distinct F reasons, and the flow can be retried")
    func passwordlessCodes() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        await #expect(throws: RegStateServiceError.registration(.wrongCode)) {
            try await service.completePasswordlessRegistration(code: "not-the-code")
        }
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        let stale = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        harness.clock.advance(by: 301)
        await #expect(throws: RegStateServiceError.registration(.codeExpired)) {
            try await service.completePasswordlessRegistration(code: stale)
        }
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        let fresh = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        #expect(try await service.completePasswordlessRegistration(code: fresh).email == "dave@example.com")
        try await service.retryRegistration()
        #expect(await service.state == .registrationRequired)
        await #expect(throws: RegStateServiceError.registration(.invalidEmail)) {
            try await service.beginPasswordlessRegistration(email: "not an email")
        }
    }

    @Test("passwordless: a code already redeemed (on another device) is F codeReused, distinct from a wrong code")
    func passwordlessCodeReused() async throws {
        let harness = try EngineHarness()
        // A new start replaces the code, so one device cannot type a redeemed code again without asking for a new
        // one. Two devices can: the second asks first, the first asks again (the inbox's latest code) and redeems it.
        let waiting = RegStateService(configuration: harness.configuration, dependencies: RegStateDependencies(
            store: InMemorySecureStore(), journal: InMemoryJournal(), transport: harness.simulator.transport, clock: harness.clock))
        await waiting.start()
        try await waiting.beginPasswordlessRegistration(email: "erin@example.com")
        let service = harness.launch()
        await service.start()
        try await service.beginPasswordlessRegistration(email: "erin@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "erin@example.com"))
        try await service.completePasswordlessRegistration(code: code)
        #expect(await service.state.letter == "G")
        await #expect(throws: RegStateServiceError.registration(.codeReused)) {
            try await waiting.completePasswordlessRegistration(code: code)
        }
        // The attempt is kept: a resend gives the waiting device its own code.
        #expect(await waiting.state == .authenticating(.passwordless(email: "erin@example.com")))
        try await waiting.resendPasswordlessCode()
        let fresh = try #require(await harness.simulator.latestCode(for: "erin@example.com"))
        #expect(try await waiting.completePasswordlessRegistration(code: fresh).email == "erin@example.com")
    }

    @Test("the backend's device limit is F TOO_MANY_REGISTERED_DEVICES and the second device keeps no token")
    func deviceLimit() async throws {
        let harness = try EngineHarness { $0.maxDevicesPerUser = 1 }
        _ = try await harness.registeredService()
        let secondStore = InMemorySecureStore()
        let second = RegStateService(configuration: harness.configuration, dependencies: RegStateDependencies(
            store: secondStore, journal: InMemoryJournal(), transport: harness.simulator.transport, clock: harness.clock))
        await second.start()
        try await harness.signIn(second, as: "alice@example.com")
        #expect(try secondStore.data(forKey: TokenService.credentialsKey) != nil, "G holds provisional tokens")
        await #expect(throws: RegStateServiceError.registration(.tooManyRegisteredDevices)) { try await second.confirmRegistration() }
        #expect(await second.state == .failed(.registration(.tooManyRegisteredDevices)))
        #expect(try secondStore.data(forKey: TokenService.credentialsKey) == nil)
    }
}

@Suite("Registration against provider variants")
struct ProviderVariantTests {
    @Test("a provider that neither sends nor advertises RFC 9207 iss: social registration still reaches H")
    func providerWithoutCallbackIssuer() async throws {
        let harness = try EngineHarness { $0.sendsIssuerInCallback = false }
        let service = try await harness.registeredService()
        #expect(await service.state.letter == "H")
    }
}

extension ProviderVariantTests {
    @Test("a provider that lists revocation only in RFC 8414 metadata: logout still revokes the refresh token there")
    func revocationFromAuthorizationServerMetadata() async throws {
        let harness = try EngineHarness { $0.listsRevocationInDiscovery = false }
        let service = try await harness.registeredService()
        let refresh = try #require(await harness.storedRefreshToken())
        try await service.logout()
        #expect(await service.state == .registrationRequired)
        let reuse = try await harness.simulator.transport.send(.form(
            url: URL(string: "https://idp.regstate.sim/oauth/token")!,
            parameters: [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "regstate-cli")]))
        #expect(reuse.status == 400)
        #expect(reuse.jsonBody?["error"] == "invalid_grant")
    }

    @Test("RFC 8414 metadata URLs: inserted before the issuer's path, and appended", arguments: [
        ("http://127.0.0.1:9000/o", ["http://127.0.0.1:9000/.well-known/oauth-authorization-server/o",
                                    "http://127.0.0.1:9000/o/.well-known/oauth-authorization-server"]),
        ("https://idp.regstate.sim", ["https://idp.regstate.sim/.well-known/oauth-authorization-server"]),
    ])
    func metadataURLs(_ issuer: String, _ expected: [String]) throws {
        let configuration = OIDCConfiguration(issuer: try #require(URL(string: issuer)), clientID: "c",
                                              redirectURI: try #require(URL(string: "com.example.app:/callback")))
        #expect(configuration.authorizationServerMetadataURLs.map(\.absoluteString) == expected)
    }
}
