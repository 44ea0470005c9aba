import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTestSupport

/// A token never follows a redirect it does not belong to: transports return 3xx as they are; the authorized
/// transport follows them, re-judging every hop by the policy and dropping `Authorization` across origins.
@Suite("Redirects never carry the token")
struct RedirectTests {
    /// Loopback hosts go over real sockets through URLSession; everything else to the simulator.
    static func loopbackOrSimulator(_ simulator: any HTTPTransport) -> RecordingTransport {
        let local = URLSessionTransport(defaultTimeout: 20)
        return RecordingTransport(base: simulator) { request, _, simulator throws(TransportError) in
            try await (request.url.host == "127.0.0.1" ? local : simulator).send(request)
        }
    }

    /// Two real servers: `first` redirects `/api/to-other-origin` to `second`, `/api/to-unlisted` to its `/unlisted`,
    /// and `/api/to-listed` to its `/api/listed`; everything else answers 200.
    static func servers() throws -> (first: LoopbackHTTPServer, second: LoopbackHTTPServer) {
        let second = try LoopbackHTTPServer { _, _ in (200, [:]) }
        let secondLanding = second.url("/landing").absoluteString
        let first = try LoopbackHTTPServer { path, _ in
            switch path {
            case "/api/to-other-origin": (302, ["Location": secondLanding])
            case "/api/to-unlisted": (307, ["Location": "/unlisted"])
            case "/api/to-listed": (308, ["Location": "/api/listed"])
            default: (200, [:])
            }
        }
        return (first, second)
    }

    @Test("URLSessionTransport returns a redirect as it came, on Linux too: nothing reaches the other server")
    func transportDoesNotFollow() async throws {
        let (first, second) = try Self.servers()
        defer { first.close(); second.close() }
        let response = try await URLSessionTransport(defaultTimeout: 20).send(HTTPRequest(
            method: .get, url: first.url("/api/to-other-origin"), headers: ["Authorization": "Bearer secret"]))
        #expect(response.status == 302)
        #expect(response.header("Location") == second.url("/landing").absoluteString)
        #expect(first.received.withLock { $0 } == [.init(method: "GET", path: "/api/to-other-origin", hasAuthorization: true)])
        #expect(second.received.withLock { $0 }.isEmpty)
    }

    /// The token reaches the listed URL, never the other origin nor an unlisted path; a listed target gets it again.
    @Test("through AuthorizedTransport over real sockets, each hop is judged by the policy")
    func authorizedOverSockets() async throws {
        let (first, second) = try Self.servers()
        defer { first.close(); second.close() }
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let transport = AuthorizedTransport(
            base: Self.loopbackOrSimulator(harness.simulator.transport), service: service,
            policy: TokenPolicy(validatingURLs: [first.url("/api")]))

        let landed = try await transport.send(HTTPRequest(method: .get, url: first.url("/api/to-other-origin")))
        #expect(landed.status == 200)
        #expect(second.received.withLock { $0 } == [.init(method: "GET", path: "/landing", hasAuthorization: false)])

        let unlisted = try await transport.send(HTTPRequest(method: .get, url: first.url("/api/to-unlisted")))
        #expect(unlisted.status == 200)
        let listed = try await transport.send(HTTPRequest(method: .get, url: first.url("/api/to-listed")))
        #expect(listed.status == 200)
        #expect(first.received.withLock { $0 } == [
            .init(method: "GET", path: "/api/to-other-origin", hasAuthorization: true),
            .init(method: "GET", path: "/api/to-unlisted", hasAuthorization: true),
            .init(method: "GET", path: "/unlisted", hasAuthorization: false),
            .init(method: "GET", path: "/api/to-listed", hasAuthorization: true),
            .init(method: "GET", path: "/api/listed", hasAuthorization: true),
        ])
    }
}
