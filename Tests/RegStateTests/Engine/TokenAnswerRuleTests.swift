import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTestSupport

/// The token-endpoint answer rule (``OIDCError/isRefusal``) at renewal, through the simulator: an OAuth refusal ends
/// the session, no answer / 5xx / an HTML page keep it offline, and a 4xx without a readable body is asked once more
/// and is a refusal when it comes back the same.
@Suite("Token-endpoint answer rule at renewal")
struct TokenAnswerRuleTests {
    /// The harness's configuration without the real-time backoff between the two asks.
    static func configuration(_ harness: EngineHarness) -> RegStateConfiguration {
        var configuration = harness.configuration
        configuration.oidc.unexplainedAnswerRetryDelay = 0
        return configuration
    }

    static func launch(_ harness: EngineHarness, transport: (any HTTPTransport)? = nil) -> RegStateService {
        RegStateService(configuration: configuration(harness), dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: transport ?? harness.simulator.transport,
            clock: harness.clock))
    }

    @Test("a retired refresh token refused with a bare 400 (Glewlwyd's answer): asked twice, then Error E final, cleared, D; the reason is journaled")
    func bareRefusal() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        await harness.simulator.setRefreshRefusal(.bareStatus(400))
        await harness.simulator.setRefusesRefresh(true)
        harness.clock.advance(by: 3_600)
        let before = await harness.simulator.refreshGrantCount
        let service = Self.launch(harness)
        var tape = await EventTape(service)
        #expect(await service.start() == .registrationRequired)
        #expect(await tape.next(2) == ["Error E", "Registration Required D"])
        #expect(await harness.simulator.refreshGrantCount - before == 2, "asked once more before deciding")
        #expect(await harness.storedRefreshToken() == nil)
        let reason = "HTTP 400 without an error body, twice"
        let entries = try await service.journalEntries().map(\.event)
        #expect(entries.contains { event in
            if case .renewalFailed(.denied(reason: reason), _) = event { return true }
            return false
        }, "the journal says why the session ended")
        #expect(RenewalFailure.denied(reason: reason).errorDescription?.contains(reason) == true)
    }

    @Test("a bare 400 once, then the provider renews: Active C, no refusal")
    func bareOnceThenSuccess() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 3_600)
        let transport = RecordingTransport.answeringRefreshGrants(HTTPResponse(status: 400), base: harness.simulator.transport)
        let service = Self.launch(harness, transport: transport)
        #expect(await service.start().letter == "C")
        #expect(transport.refreshes == 2)
        #expect(await service.state.session?.connectivity == .online)
    }

    @Test("a bare 400, then a 503 on the retry: the 503 decides, transient, the session stays offline with its tokens")
    func bareThenServerError() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let refresh = await harness.storedRefreshToken()
        harness.clock.advance(by: 3_600)
        let transport = RecordingTransport.answeringRefreshGrants(HTTPResponse(status: 400), HTTPResponse(status: 503),
                                               base: harness.simulator.transport)
        let service = Self.launch(harness, transport: transport)
        let state = await service.start()
        #expect(state.session?.connectivity == .offline(.ssoUnspecifiedIssue))
        #expect(await harness.storedRefreshToken() == refresh)
    }

    @Test("an HTML page instead of the provider (captive portal, any status): transient, shown as no connection, tokens kept",
          arguments: [200, 302, 403, 511])
    func captivePortal(status: Int) async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let refresh = await harness.storedRefreshToken()
        harness.clock.advance(by: 3_600)
        let page = HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"],
                                body: Data("<html><body>Accept the terms to get online</body></html>".utf8))
        let transport = RecordingTransport.answeringRefreshGrants(page, page, base: harness.simulator.transport)
        let service = Self.launch(harness, transport: transport)
        let state = await service.start()
        #expect(state.session?.connectivity == .offline(.noInternet))
        #expect(transport.refreshes == 1, "a web page is not asked twice")
        #expect(await harness.storedRefreshToken() == refresh)
    }

    @Test("RFC 6749 refusal codes end the session at the first answer; temporarily_unavailable keeps it",
          arguments: [("invalid_grant", true), ("invalid_client", true), ("unauthorized_client", true),
                      ("temporarily_unavailable", false)])
    func oauthCodes(code: String, ends: Bool) async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 3_600)
        let answer = HTTPResponse.json(400, ["error": .string(code)])
        let transport = RecordingTransport.answeringRefreshGrants(answer, answer, base: harness.simulator.transport)
        let service = Self.launch(harness, transport: transport)
        let state = await service.start()
        #expect((state == .registrationRequired) == ends)
        #expect(transport.refreshes == 1)
        let journaled = try await service.journalEntries().contains { entry in
            if case .renewalFailed(.denied(reason: code), _) = entry.event { return true }
            return false
        }
        #expect(journaled == ends)
    }
}

extension RecordingTransport {
    /// The simulator's transport, with the first refresh-token grants answered by `answers` in order (the later ones
    /// reach the simulator).
    static func answeringRefreshGrants(_ answers: HTTPResponse..., base: any HTTPTransport) -> RecordingTransport {
        RecordingTransport(base: base) { request, earlier, base throws(TransportError) in
            Kind(request) == .grant("refresh_token") && earlier < answers.count ? answers[earlier] : try await base.send(request)
        }
    }

    /// How many refresh-token grants were sent.
    var refreshes: Int { requests(.grant("refresh_token")).count }
}
