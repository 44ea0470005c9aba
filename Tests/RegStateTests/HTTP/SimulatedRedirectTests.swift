import Foundation
import Testing
@testable import RegState
import RegStateSimulator

/// The same rules through the simulator's redirect knob, against the registration backend's API.
@Suite("Redirects through the simulator")
struct SimulatedRedirectTests {
    static let api = URL(string: "https://api.regstate.sim/v1")!
    static let registration = URL(string: "https://api.regstate.sim/v1/registration")!

    /// A registered session, an authorized transport for the backend's `/v1`, and the simulator redirecting
    /// `/v1/registration` to `target` with `status`.
    static func world(redirectingTo target: String, status: Int = 307)
        async throws -> (EngineHarness, AuthorizedTransport)
    {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        await harness.simulator.setRedirects([
            SimulatorRedirect(from: registration, to: URL(string: target)!, status: status),
        ])
        await harness.simulator.resetCounters()
        let transport = AuthorizedTransport(base: harness.simulator.transport, service: service,
                                            policy: TokenPolicy(validatingURLs: [api]))
        return (harness, transport)
    }

    static let targets: [(String, Bool)] = [
        ("https://evil.example/steal", false),                 // another host
        ("https://api.regstate.sim:8443/v1/registration", false), // another port
        ("http://api.regstate.sim/v1/registration", false),    // another scheme
        ("https://api.regstate.sim/internal/debug", false),    // same origin, a path the policy does not list
        ("https://api.regstate.sim/v1/../internal", false),    // ... written to look listed
        ("https://api.regstate.sim/v1/moved", true),           // same origin, listed: the policy says yes
    ]

    @Test("a redirect carries the token only to a URL the policy lists", arguments: targets)
    func redirectTarget(_ target: String, _ authorized: Bool) async throws {
        let (harness, transport) = try await Self.world(redirectingTo: target)
        let response = try await transport.send(HTTPRequest(method: .get, url: Self.registration))
        #expect(response.status == 200)
        #expect(response.jsonBody?["received_authorization"]?.boolValue == authorized)
        let log = await harness.simulator.requestLog
        #expect(log.first == "GET /v1/registration redirected")
        #expect(log.last?.hasSuffix("authorization=\(authorized)") == true)
    }

    @Test("every 3xx status is followed the same way", arguments: [301, 302, 303, 307, 308])
    func statuses(_ status: Int) async throws {
        let (_, transport) = try await Self.world(redirectingTo: "https://evil.example/steal", status: status)
        let response = try await transport.send(HTTPRequest(method: .get, url: Self.registration))
        #expect(response.jsonBody?["received_authorization"]?.boolValue == false)
    }

    @Test("an Authorization header the caller set itself is dropped when the origin changes")
    func callersOwnHeader() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let from = URL(string: "https://api.regstate.sim/public/start")!
        await harness.simulator.setRedirects([SimulatorRedirect(from: from, to: URL(string: "https://evil.example/x")!)])
        let transport = AuthorizedTransport(base: harness.simulator.transport, service: service,
                                            policy: TokenPolicy(validatingURLs: [Self.api]))
        let response = try await transport.send(HTTPRequest(method: .get, url: from,
                                                            headers: ["authorization": "Basic dXNlcjpwYXNz"]))
        #expect(response.jsonBody?["received_authorization"]?.boolValue == false)
    }

    @Test("a redirect loop stops after five hops with the last redirect")
    func loop() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let a = URL(string: "https://api.regstate.sim/v1/a")!
        let b = URL(string: "https://api.regstate.sim/v1/b")!
        await harness.simulator.setRedirects([SimulatorRedirect(from: a, to: b), SimulatorRedirect(from: b, to: a)])
        await harness.simulator.resetCounters()
        let transport = AuthorizedTransport(base: harness.simulator.transport, service: service,
                                            policy: TokenPolicy(validatingURLs: [Self.api]))
        let response = try await transport.send(HTTPRequest(method: .get, url: a))
        #expect(response.status == 307)
        #expect(await harness.simulator.requestLog.count == 6)
    }

    @Test("303 turns a POST into a GET without a body; 307 keeps both")
    func methods() {
        let request = HTTPRequest.json(.post, url: Self.registration, body: ["a": 1])
        let see = Redirect.next(after: request, response: HTTPResponse(status: 303, headers: ["Location": "/v1/x"]))
        #expect(see?.method == .get)
        #expect(see?.body == nil)
        #expect(see?.header("Content-Type") == nil)
        #expect(see?.url.absoluteString == "https://api.regstate.sim/v1/x")
        let temporary = Redirect.next(after: request, response: HTTPResponse(status: 307, headers: ["Location": "x"]))
        #expect(temporary?.method == .post)
        #expect(temporary?.body == request.body)
        #expect(Redirect.next(after: request, response: HTTPResponse(status: 304, headers: ["Location": "/x"])) == nil)
        #expect(Redirect.next(after: request, response: HTTPResponse(status: 302)) == nil)
        #expect(Redirect.next(after: request, response: HTTPResponse(status: 302, headers: ["Location": "file:///etc"])) == nil)
    }
}
