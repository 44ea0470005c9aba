import Foundation
import Testing
@testable import RegState
@testable import RegStateLoopback

@Suite("Loopback redirect listener")
struct LoopbackListenerTests {
    @Test("An ephemeral port is bound and reflected in the redirect URI")
    func boundPort() throws {
        let listener = try LoopbackRedirectListener(port: 0, path: "/callback")
        #expect(listener.port > 0)
        #expect(listener.redirectURI.absoluteString == "http://127.0.0.1:\(listener.port)/callback")
    }

    @Test("A GET to the redirect path is answered with a page and returned as the redirect URL")
    func roundTrip() async throws {
        let listener = try LoopbackRedirectListener()
        async let redirect = listener.waitForRedirect(timeout: 120)
        // The listener serves once its wait has started, which a busy test run (every core taken by other suites)
        // may delay for a while: the requests wait as long as the listener does rather than the default 30 s.
        let transport = URLSessionTransport(defaultTimeout: 120)
        // A request for another path first (browsers ask for /favicon.ico): answered 404, waiting goes on.
        let favicon = try await transport.send(HTTPRequest(
            method: .get, url: try #require(URL(string: "http://127.0.0.1:\(listener.port)/favicon.ico"))))
        #expect(favicon.status == 404)
        let target = "http://127.0.0.1:\(listener.port)/callback?code=abc&state=s%2B1&iss=https%3A%2F%2Fidp.test"
        let response = try await transport.send(HTTPRequest(method: .get, url: try #require(URL(string: target))))
        #expect(response.status == 200)
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(page.contains("You can close this window"))
        // The page is sent before the redirect is checked (a forged one gets it too), so it claims no success.
        #expect(!page.localizedCaseInsensitiveContains("complete") && !page.localizedCaseInsensitiveContains("success"))
        let url = try await redirect
        #expect(url.absoluteString == target)
        let code = try AuthorizationCallback.code(
            from: url, expectedRedirect: listener.redirectURI, expectedState: "s+1", issuer: "https://idp.test",
            issuerRequired: true)
        #expect(code == "abc")
    }

    @Test("Without a redirect, the wait ends with timedOut")
    func timeout() async throws {
        let listener = try LoopbackRedirectListener()
        await #expect(throws: LoopbackListenerError.timedOut) { try await listener.waitForRedirect(timeout: 0.2) }
    }

    @Test("Cancelling the task ends the wait, and a later wait still works")
    func cancellation() async throws {
        let listener = try LoopbackRedirectListener()
        let task = Task { try await listener.waitForRedirect(timeout: 60) }
        task.cancel()
        await #expect(throws: LoopbackListenerError.cancelled) { try await task.value }
        await #expect(throws: LoopbackListenerError.timedOut) { try await listener.waitForRedirect(timeout: 0.1) }
    }

    @Test("After close, waiting is refused")
    func closed() async throws {
        let listener = try LoopbackRedirectListener()
        listener.close()
        await #expect(throws: LoopbackListenerError.closed) { try await listener.waitForRedirect(timeout: 1) }
    }

    @Test("A port already in use cannot be bound")
    func portInUse() throws {
        let first = try LoopbackRedirectListener()
        #expect(throws: LoopbackListenerError.self) { try LoopbackRedirectListener(port: first.port) }
    }

    static let heads: [(String, LoopbackRequest)] = [
        ("GET /callback?code=1 HTTP/1.1\r\nHost: x\r\n\r\n", .redirect(target: "/callback?code=1")),
        ("GET /callback HTTP/1.1\r\n\r\n", .redirect(target: "/callback")),
        ("GET /callbackx?code=1 HTTP/1.1\r\n\r\n", .otherPath),
        ("POST /callback HTTP/1.1\r\n\r\n", .notGet),
        ("hello\r\n\r\n", .malformed),
        ("GET http://evil/callback HTTP/1.1\r\n\r\n", .malformed),
    ]

    @Test("Request heads are classified", arguments: heads)
    func classify(_ head: String, _ expected: LoopbackRequest) {
        #expect(LoopbackRequest(head: head, expectedPath: "/callback") == expected)
    }
}
