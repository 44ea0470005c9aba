import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// Issue 20, CLI polish in the library: an app learns from the provider's discovery whether to offer the email
/// option, and logout's end-session request exists only where the login left a browser session at the provider.
@Suite("Capabilities discovered, not assumed")
struct CapabilityTests {
    @Test("discovery lists the one-time-code grant: offered")
    func offered() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        let availability = await service.passwordlessAvailability()
        #expect(availability == .offered)
        #expect(availability.mayOffer)
        #expect(availability.reason == nil)
    }

    @Test("discovery lists grant types without it (as django-oauth-toolkit): not offered, with the reason; an attempt fails typed")
    func notOffered() async throws {
        let harness = try EngineHarness { $0.offersPasswordless = false }
        let service = harness.launch()
        await service.start()
        let availability = await service.passwordlessAvailability()
        #expect(availability == .notOffered)
        #expect(!availability.mayOffer)
        #expect(availability.reason?.contains("does not list the one-time-code grant") == true)
        await #expect(throws: RegStateServiceError.registration(.grantNotOffered(.passwordless))) {
            try await service.beginPasswordlessRegistration(email: "dave@example.com")
        }
    }

    @Test("no passwordless start URL configured: notConfigured; discovery unreadable (offline): unknown, still offered")
    func notConfiguredAndUnknown() async throws {
        let harness = try EngineHarness()
        var configuration = harness.configuration
        configuration.oidc.passwordlessStartURL = nil
        let unconfigured = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport, clock: harness.clock))
        #expect(await unconfigured.passwordlessAvailability() == .notConfigured)
        #expect(await unconfigured.passwordlessAvailability().mayOffer == false)

        await harness.simulator.setOffline(true)
        let offline = harness.launch()
        #expect(await offline.passwordlessAvailability() == .unknown)
        #expect(await offline.passwordlessAvailability().mayOffer)
    }

    @Test("after a passwordless registration logout has no end-session request (no browser session); after a social one it has")
    func endSessionOnlyAfterBrowserLogin() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        try await service.completePasswordlessRegistration(code: code)
        try await service.confirmRegistration()
        let passwordless = try await service.logout()
        #expect(passwordless.result == .revoked)
        #expect(passwordless.endSession == nil)

        try await harness.signIn(service)
        try await service.confirmRegistration()
        let social = try await service.logout()
        #expect(social.result == .revoked)
        #expect(social.endSession != nil)
    }

    @Test("a non-native platform (Active A, no ID token): logout revokes nothing and has no end-session request")
    func nonNativeLogout() async throws {
        let harness = try EngineHarness()
        let service = harness.launch(platform: FixedPlatformService.web)
        #expect(await service.start().session?.activation == .nonNative)
        let loggedOut = try await service.logout()
        let result = loggedOut.result
        #expect(result == .nothingToRevoke)
        #expect(result != .revoked)
        #expect(!result.description.contains("revoked the"))
        #expect(loggedOut.endSession == nil)
    }
}
