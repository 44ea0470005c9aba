import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTestSupport

/// One rule for "is this transient, and which issue is it": a page that is not the provider's (a captive portal) is
/// no connection, whether it answers the refresh-token grant or the logout's revocation; nothing is lost either way.
@Suite("One rule for transient failures: renewal and logout agree")
struct TransientRuleTests {
    private static let portalPage = HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                                                 body: Data("<html><body>Accept the terms to get online</body></html>".utf8))

    @Test("a captive portal answering the revocation: logout refused as no connection, the session and its tokens stay",
          arguments: [302, 403, 511])
    func portalAtLogout(status: Int) async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let refresh = await harness.storedRefreshToken()
        let page = HTTPResponse(status: status, headers: Self.portalPage.headers, body: Self.portalPage.body)
        let transport = RecordingTransport(base: harness.simulator.transport) { request, _, base throws(TransportError) in
            RecordingTransport.Kind(request) == .revocation ? page : try await base.send(request)
        }
        let service = TokenAnswerRuleTests.launch(harness, transport: transport)
        #expect(await service.start().session != nil)
        await #expect(throws: RegStateServiceError.offline(.noInternet)) { try await service.logout() }
        #expect(await service.state.session != nil)
        #expect(await harness.storedRefreshToken() == refresh)
    }

    @Test("the same page answering the refresh-token grant is the same issue: offline, no connection")
    func portalAtRenewal() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 3_600)
        let transport = RecordingTransport.answeringRefreshGrants(Self.portalPage, Self.portalPage, base: harness.simulator.transport)
        let service = TokenAnswerRuleTests.launch(harness, transport: transport)
        #expect(await service.start().session?.connectivity == .offline(.noInternet))
    }
}

