import Foundation
import Testing
@testable import RegState
import RegStateTestSupport

/// What counts as a revocation at logout (RFC 7009 §2.2): the revocation endpoint's own `200`, whose body the client
/// ignores. A redirect or a web page is not the provider answering (a captive portal, a proxy): logout is refused as no
/// connection and nothing changes. Any other answer is not a revocation: the local logout happens and says the refresh
/// token may still be valid. The simulator is the provider; only the revocation's answer is replaced.
@Suite("Which answers to the revocation count as revoked")
struct RevocationAnswerRuleTests {
    enum Expected: Equatable { case revoked, offline, notRevoked }

    struct Answer: Sendable, CustomTestStringConvertible {
        var name: String
        var response: HTTPResponse?
        var expected: Expected
        var testDescription: String { name }
    }

    static let page = Data("<html><body>Accept the terms to get online</body></html>".utf8)
    static let answers: [Answer] = [
        Answer(name: "the simulator's own 200", response: nil, expected: .revoked),
        Answer(name: "200, empty, no content type", response: HTTPResponse(status: 200), expected: .revoked),
        Answer(name: "200, empty, text/html (django-oauth-toolkit)",
               response: HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"]), expected: .revoked),
        Answer(name: "200, {} as JSON", response: HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                                             body: Data("{}".utf8)), expected: .revoked),
        Answer(name: "200, a captive portal's page", response: HTTPResponse(
            status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: page), expected: .offline),
        Answer(name: "200, markup without a content type", response: HTTPResponse(status: 200, body: page), expected: .offline),
        Answer(name: "302 to another host", response: HTTPResponse(
            status: 302, headers: ["Location": "http://portal.example/login"]), expected: .offline),
        Answer(name: "307 to the same host", response: HTTPResponse(
            status: 307, headers: ["Location": "https://idp.regstate.sim/oauth/revoke/"]), expected: .offline),
        Answer(name: "511 Network Authentication Required", response: HTTPResponse(status: 511), expected: .offline),
        Answer(name: "503", response: HTTPResponse(status: 503), expected: .offline),
        Answer(name: "204 (not RFC 7009's 200)", response: HTTPResponse(status: 204), expected: .notRevoked),
        Answer(name: "400 unsupported_token_type", response: HTTPResponse(
            status: 400, headers: ["Content-Type": "application/json"],
            body: Data(#"{"error":"unsupported_token_type"}"#.utf8)), expected: .notRevoked),
    ]

    @Test("logout against each answer: revoked only for the endpoint's 200; a redirect or a page is no connection",
          arguments: answers)
    func logout(_ answer: Answer) async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let refresh = try #require(await harness.storedRefreshToken())
        let replaced = answer.response
        let transport = RecordingTransport(base: harness.simulator.transport) { request, _, base throws(TransportError) in
            guard RecordingTransport.Kind(request) == .revocation, let replaced else { return try await base.send(request) }
            return replaced
        }
        let service = TokenAnswerRuleTests.launch(harness, transport: transport)
        #expect(await service.start().session != nil)
        var outcome: Result<LogoutResult, RegStateServiceError>
        do {
            outcome = .success(try await service.logout().result)
        } catch {
            outcome = .failure(error)
        }
        switch answer.expected {
        case .revoked:
            #expect((try? outcome.get()) == .revoked)
            #expect(await harness.storedRefreshToken() == nil)
        case .offline:
            guard case .failure(let error) = outcome, case .offline = error else {
                Issue.record("expected the logout refused as offline, got \(outcome)")
                return
            }
            #expect(await service.state.session != nil, "nothing changed")
            #expect(await harness.storedRefreshToken() == refresh)
        case .notRevoked:
            let result = try outcome.get()
            #expect(result != .revoked, "\(result)")
            if case .revocationRefused = result {} else { Issue.record("expected revocationRefused, got \(result)") }
            #expect(await harness.storedRefreshToken() == nil, "the local logout happened")
        }
        // Revoked means the provider no longer honours the refresh token; anything else leaves it honoured.
        #expect(await harness.simulator.honours(refreshToken: refresh) == (answer.response == nil ? false : true))
    }
}
