import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// Switching accounts (issue 20): logout ends the provider's browser session (RP-initiated logout), and registration
/// can ask the provider for the login form again (`prompt=login` / `select_account`). Without either, a browser that
/// is still signed in at the provider signs the same user in again.
@Suite("Switching accounts")
struct AccountSwitchTests {
    private static let signedOut = "com.example.app:/signed-out"

    /// A service whose configuration names a post-logout redirect, over `harness`'s world.
    private static func service(_ harness: EngineHarness) -> RegStateService {
        var configuration = harness.configuration
        configuration.oidc.postLogoutRedirectURI = URL(string: signedOut)
        return RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport,
            clock: harness.clock, logger: harness.logger))
    }

    /// Social sign-in through the simulated browser (which keeps its provider session), then confirmation.
    private static func register(_ service: RegStateService, _ harness: EngineHarness, otherwise email: String,
                                 prompt: LoginPrompt? = nil) async throws -> Profile {
        let url = try await service.beginSocialRegistration(prompt: prompt)
        let callback = try await harness.simulator.authorizeInBrowser(url, otherwise: email)
        let profile = try await service.completeSocialRegistration(callback: callback)
        try await service.confirmRegistration()
        return profile
    }

    @Test("logout returns the end-session request: client_id, post_logout_redirect_uri, id_token_hint only in its URL")
    func endSessionRequest() async throws {
        let harness = try EngineHarness { $0.redirectURIs.append(Self.signedOut) }
        let service = Self.service(harness)
        await service.start()
        _ = try await Self.register(service, harness, otherwise: "alice@example.com")
        let idToken = try #require(await TokenService(store: harness.store, clock: harness.clock).snapshot()?.idToken)
        let loggedOut = try await service.logout()
        #expect(loggedOut.result == .revoked)
        let request = try #require(loggedOut.endSession)
        let query = FormEncoding.queryItems(of: request.url)
        #expect(request.url.path.hasSuffix("/v2/logout"))
        #expect(query["client_id"] == harness.world.clientID)
        #expect(query["post_logout_redirect_uri"] == Self.signedOut)
        #expect(query["id_token_hint"] == idToken)
        #expect(FormEncoding.queryItems(of: request.displayURL)["id_token_hint"] == nil)
        for text in ["\(request)", String(reflecting: request), request.displayURL.absoluteString] {
            #expect(!text.contains(idToken))
        }
        #expect(!harness.logger.messages().joined().contains(idToken))
        #expect(!String(decoding: harness.journal.rawBytes, as: UTF8.self).contains(idToken))
        // The browser opens it: the provider's session ends and the browser goes to the post-logout redirect.
        #expect(await harness.simulator.browserSessionEmail == "alice@example.com")
        let answer = try await harness.simulator.transport.send(HTTPRequest(method: .get, url: request.url))
        #expect(answer.status == 302)
        #expect(answer.headers["Location"]?.hasPrefix(Self.signedOut) == true)
        #expect(await harness.simulator.browserSessionEmail == nil)
    }

    @Test("a provider without end_session_endpoint: logout still works, and there is no end-session request")
    func noEndSessionEndpoint() async throws {
        let harness = try EngineHarness { $0.offersEndSession = false }
        let service = try await harness.registeredService()
        let loggedOut = try await service.logout()
        #expect(loggedOut.result == .revoked)
        #expect(loggedOut.endSession == nil)
    }

    @Test("without ending the provider session the same user comes back; prompt=login asks again; so does a browser whose session was ended")
    func switchAccounts() async throws {
        let harness = try EngineHarness()
        let service = Self.service(harness)
        await service.start()
        #expect(try await Self.register(service, harness, otherwise: "alice@example.com").email == "alice@example.com")
        try await service.logout()
        // The bug of seed 002: the browser is still signed in, so "another account" is alice again.
        #expect(try await Self.register(service, harness, otherwise: "bob@example.com").email == "alice@example.com")
        try await service.logout()
        // prompt=login: the provider asks for the user again.
        let url = try await service.beginSocialRegistration(prompt: .login)
        #expect(FormEncoding.queryItems(of: url)["prompt"] == "login")
        let callback = try await harness.simulator.authorizeInBrowser(url, otherwise: "bob@example.com")
        #expect(try await service.completeSocialRegistration(callback: callback).email == "bob@example.com")
        try await service.confirmRegistration()
        // Ending the provider session (the URL the logout returned) has the same effect without a prompt.
        let end = try #require(try await service.logout().endSession)
        _ = try await harness.simulator.transport.send(HTTPRequest(method: .get, url: end.url))
        #expect(try await Self.register(service, harness, otherwise: "carol@example.com").email == "carol@example.com")
    }

    @Test("prompt=select_account is sent as such; no prompt sends none")
    func selectAccount() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        let url = try await service.beginSocialRegistration(prompt: .selectAccount)
        #expect(FormEncoding.queryItems(of: url)["prompt"] == "select_account")
        let other = harness.launch()
        await other.start()
        let plain = try await other.beginSocialRegistration()
        #expect(FormEncoding.queryItems(of: plain)["prompt"] == nil)
    }
}
