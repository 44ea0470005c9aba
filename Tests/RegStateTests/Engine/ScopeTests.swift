import Foundation
import Testing
@testable import RegState
import RegStateSimulator

/// Scopes: the optional ones (`profile`, `email`, `offline_access`) are asked for only when discovery's
/// `scopes_supported` lists them (or publishes no list); `openid` always; what the app configures on purpose is sent.
@Suite("Requested scopes")
struct ScopeTests {
    static let table: [(configured: [String], supported: [String]?, requested: [String])] = [
        (OIDCConfiguration.defaultScopes, nil, ["openid", "profile", "email", "offline_access"]),
        (OIDCConfiguration.defaultScopes, ["openid", "profile", "email", "offline_access", "phone"],
         ["openid", "profile", "email", "offline_access"]),
        (OIDCConfiguration.defaultScopes, ["openid", "email"], ["openid", "email"]),
        (OIDCConfiguration.defaultScopes, [], ["openid"]),
        (["email"], nil, ["openid", "email"]),
        (["openid", "email", "email", "openid"], nil, ["openid", "email"]),
        (["openid", "payments", "offline_access"], ["openid"], ["openid", "payments"]),
    ]

    @Test("requestedScopes: openid first, optional scopes only when listed, configured extras as configured",
          arguments: table)
    func requested(configured: [String], supported: [String]?, requested: [String]) {
        let configuration = OIDCConfiguration(issuer: URL(string: "https://idp.example")!, clientID: "c",
                                              redirectURI: EngineHarness.redirect, scopes: configured)
        #expect(configuration.requestedScopes(supported: supported) == requested)
    }

    static func scope(of url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "scope" }?.value
    }

    @Test("a provider that lists only openid and email and refuses other scopes: asked for openid email, registration reaches H")
    func restrictedProvider() async throws {
        let harness = try EngineHarness { configuration in
            configuration.scopesSupported = ["openid", "email"]
            configuration.refusesUnknownScopes = true
            configuration.requiresOfflineAccessForRefreshToken = false
        }
        let service = harness.launch()
        #expect(await service.start() == .registrationRequired)
        let url = try await service.beginSocialRegistration()
        #expect(Self.scope(of: url) == "openid email")
        let callback = try await harness.simulator.authorize(url, as: "alice@example.com")
        let profile = try await service.completeSocialRegistration(callback: callback)
        #expect(profile.email == "alice@example.com")
        #expect(try await service.confirmRegistration().activation == .registered)
    }

    @Test("the same provider refuses a configured scope it does not know (invalid_scope): F with the provider's code, nothing stored")
    func unknownConfiguredScopeIsRefused() async throws {
        let harness = try EngineHarness { configuration in
            configuration.scopesSupported = ["openid", "email"]
            configuration.refusesUnknownScopes = true
        }
        var configuration = harness.configuration
        configuration.oidc.scopes = ["openid", "email", "payments"]
        let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport, clock: harness.clock))
        #expect(await service.start() == .registrationRequired)
        let url = try await service.beginSocialRegistration()
        #expect(Self.scope(of: url) == "openid email payments")
        let callback = try await harness.simulator.authorize(url, as: "alice@example.com")
        await #expect(throws: RegStateServiceError.registration(.authorizationDenied(
            error: "invalid_scope", description: "The scope payments is not supported."))) {
            try await service.completeSocialRegistration(callback: callback)
        }
        #expect(await harness.storedRefreshToken() == nil)
    }

    @Test("a provider that publishes no scopes_supported is asked for every configured scope")
    func silentProvider() async throws {
        let harness = try EngineHarness { configuration in configuration.scopesSupported = nil }
        let service = harness.launch()
        _ = await service.start()
        let url = try await service.beginSocialRegistration()
        #expect(Self.scope(of: url) == "openid profile email offline_access")
    }
}
