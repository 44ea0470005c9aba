import Foundation
import Testing
@testable import RegState
@testable import RegStateLoopback
import RegStateTestSupport

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

    // MARK: - Issue 43: connections side by side, each with its own deadline

    /// A redirect target the tests send (any GET for /callback is a redirect to the listener).
    static let genuineTarget = "/callback?code=genuine&state=s1"

    @Test("Given three idle connections (a browser's preconnects) and a one-byte-a-second drip, when the genuine redirect comes, then the wait returns it while they are still open, not after them")
    func idleAndDripDoNotDelay() async throws {
        // Each connection's own deadline is far beyond the wait's, so the test does not depend on the machine's speed:
        // served one at a time, the genuine redirect would be read only after the idle ones ended, which they do not.
        let listener = try LoopbackRedirectListener(connectionTimeout: 600)
        let idle = (0..<3).compactMap { _ in RawLoopbackClient(port: listener.port) }
        #expect(idle.count == 3)
        let drip = try #require(RawLoopbackClient(port: listener.port))
        let dripping = Task.detached {
            for byte in "GET /callback?code=drip HTTP/1.1\r\n\r\n" {
                guard !Task.isCancelled, drip.send(String(byte)) else { return }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        defer { dripping.cancel() }
        let port = listener.port
        let browser = RawLoopbackClient.Fetch(port: port, target: Self.genuineTarget)
        // 120 s is a liveness bound only: side by side the redirect arrives in milliseconds.
        let url = try await listener.waitForRedirect(timeout: 120)
        #expect(url.absoluteString == "http://127.0.0.1:\(port)\(Self.genuineTarget)")
        // Still open: nothing came back on them, not even the end of the connection.
        #expect(idle.allSatisfy { $0.readToEnd(deadline: 0.05) == nil })
        guard case .answered(200, let page) = await browser.outcome else {
            Issue.record("the browser got no page: \(await browser.outcome)")
            return
        }
        #expect(page.contains("You can close this window"))
        idle.forEach { $0.close() }
    }

    @Test("Given more idle connections than the listener serves at once, when the genuine redirect comes, then the oldest is closed to make room and the redirect is taken")
    func connectionBound() async throws {
        let listener = try LoopbackRedirectListener(connectionTimeout: 600, maxConnections: 4)
        let idle = (0..<10).compactMap { _ in RawLoopbackClient(port: listener.port) }
        let port = listener.port
        let browser = RawLoopbackClient.Fetch(port: port, target: Self.genuineTarget)
        let url = try await listener.waitForRedirect(timeout: 120)
        #expect(url.path == "/callback")
        #expect(await browser.outcome.isAnswered(200))
        // The first idle connections were closed unanswered to make room, within the bound.
        #expect(idle.first?.readToEnd(deadline: 20) == "")
        idle.forEach { $0.close() }
    }

    @Test("Given a connection that sends nothing, when its own deadline passes, then it is closed (no connection holds the port)")
    func ownDeadline() async throws {
        let listener = try LoopbackRedirectListener(connectionTimeout: 0.2)
        let idle = try #require(RawLoopbackClient(port: listener.port))
        #expect(idle.readToEnd(deadline: 20) == "", "closed by the listener, unanswered")
        withExtendedLifetime(listener) {}
    }

    @Test("Given a redirect was caught, when the browser reloads the page, then it is answered again and not handed out twice")
    func reloadAnswered() async throws {
        let listener = try LoopbackRedirectListener()
        let port = listener.port
        let first = RawLoopbackClient.Fetch(port: port, target: Self.genuineTarget)
        _ = try await listener.waitForRedirect(timeout: 120)
        #expect(await first.outcome.isAnswered(200))
        // No wait is running: before issue 43 nobody accepted, and the tab spun.
        let reload = await RawLoopbackClient.fetch(port: port, target: Self.genuineTarget, deadline: 20)
        #expect(reload.isAnswered(200), "\(reload)")
        await #expect(throws: LoopbackListenerError.timedOut) { try await listener.waitForRedirect(timeout: 0.3) }
    }

    @Test("Given redirects that came while nobody waited (a forged one, then the genuine), when the app waits twice, then it gets them in order")
    func keptForTheNextWait() async throws {
        let listener = try LoopbackRedirectListener()
        let port = listener.port
        #expect(await RawLoopbackClient.fetch(port: port, target: "/callback?code=x&state=forged").isAnswered(200))
        #expect(await RawLoopbackClient.fetch(port: port, target: Self.genuineTarget).isAnswered(200))
        #expect(try await listener.waitForRedirect(timeout: 120).query == "code=x&state=forged")
        #expect(try await listener.waitForRedirect(timeout: 120).query == "code=genuine&state=s1")
    }

    @Test("Given close(), then the port is released: it can be bound again while the closed listener still exists")
    func closeReleasesThePort() async throws {
        let listener = try LoopbackRedirectListener()
        let port = listener.port
        listener.close()
        // The serving thread releases the port as it ends; binding it again (which, unlike connecting, fills no
        // backlog) is retried for a generous 20 s on a busy machine.
        var again: LoopbackRedirectListener?
        for _ in 0..<400 where again == nil {
            again = try? LoopbackRedirectListener(port: port)
            if again == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(again != nil, "the port is still bound after close()")
        withExtendedLifetime(listener) {}
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
