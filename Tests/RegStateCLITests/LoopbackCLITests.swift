import Foundation
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport
import Testing
@testable import regstate

/// Issue 43 through the walkthrough with `--issuer --loopback` (in process, the provider routed to a simulator, the
/// browser played over real sockets on 127.0.0.1): idle connections and forged redirects aimed at the listener's
/// port never end or delay the login, and once the login is over nothing listens on the port.
@Suite("CLI: the loopback listener under idle connections and forged redirects")
struct LoopbackCLITests {
    /// Waits (a liveness bound) until `terminal`'s stderr holds a line starting with `prefix`; returns it.
    static func line(in terminal: ScriptedTerminal, startingWith prefix: String) async throws -> String {
        for _ in 0..<1_200 {
            if let line = terminal.stderr.split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) {
                return String(line)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CancellationError()
    }

    @Test("Given --loopback, when three idle connections and six forged redirects reach the port before the genuine one, then each forged one is refused, the login waits, the genuine one registers (Active H), and the port is closed once the login is over")
    func forgedRedirectsNeverEndTheLogin() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-loopback-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        let simulator = try Simulator()
        let reloadAtConfirmation = LockedOutcome()
        let genuineURL = LockedOutcome()
        let terminal = ScriptedTerminal { question, stderr in
            switch question {
            case 0: return "1"
            case 1:
                // Only the confirmation menu is answered: a login ended by the forged redirects would bring the
                // registration menu back, and the input ends there.
                guard stderr.contains("Confirm this profile?"), let url = genuineURL.url, let port = url.port else { return nil }
                // The login is over: a reload of the page must not spin (refused at once, or answered).
                reloadAtConfirmation.outcome = RawLoopbackClient.get(
                    port: UInt16(port), target: RawLoopbackClient.target(of: url), deadline: 20)
                return "1"
            default: return nil
            }
        }
        let browser = Task.detached {
            let waiting = try await Self.line(in: terminal, startingWith: "Waiting for the redirect on ")
            let listening = try #require(URL(string: String(waiting.dropFirst("Waiting for the redirect on ".count)
                .dropLast(" ...".count))))
            let port = try #require(listening.port.flatMap { UInt16(exactly: $0) })
            let authorize = try await Self.line(in: terminal, startingWith: "https://idp.regstate.sim/authorize?")
            let genuine = try await simulator.authorize(try #require(URL(string: authorize)), as: "alice@example.com")
            genuineURL.url = genuine
            let idle = (0..<3).compactMap { _ in RawLoopbackClient(port: port) }
            let forgeries: [RedirectForgery] = [.wrongState, .noState, .otherIssuer, .noCode]
            for index in 0..<6 {
                let forged = try #require(forgeries[index % forgeries.count].apply(to: genuine))
                let target = RawLoopbackClient.target(of: forged) + "&attempt=\(index)"
                let page = await RawLoopbackClient.fetch(port: port, target: target)
                #expect(page.isAnswered(200), "forged redirect \(index): \(page)")
            }
            let page = await RawLoopbackClient.fetch(port: port, target: RawLoopbackClient.target(of: genuine))
            #expect(page.isAnswered(200), "genuine redirect: \(page)")
            idle.forEach { $0.close() }
            return port
        }
        let status = await CLI.run(
            arguments: ["--issuer", "https://idp.regstate.sim", "--client-id", "regstate-cli",
                        "--redirect-uri", "http://127.0.0.1:0/callback", "--loopback", "--store", store.path],
            environment: [:], terminal: terminal, providerTransport: simulator.transport)
        browser.cancel()
        let port = try await browser.value
        #expect(status == 0, "stdout: \(terminal.stdout)\nstderr: \(terminal.stderr)")
        #expect(terminal.stdout.contains("Active H (social"), "\(terminal.stdout)")
        #expect(!terminal.stdout.contains("Too many sign-in responses"), "\(terminal.stdout)")
        let refusals = terminal.stderr.components(separatedBy: "That redirect does not belong to this sign-in").count - 1
        #expect(refusals == 6, "\(terminal.stderr)")
        let reload = try #require(reloadAtConfirmation.outcome, "the confirmation menu was reached")
        #expect(reload != .timedOut, "a reload after the login must not spin: \(reload)")
        #expect(RawLoopbackClient.get(port: port, target: "/callback", deadline: 20) == .refused,
                "nothing listens once the login is over")
    }
}

/// What the scripted browser saw, shared with the terminal's script.
final class LockedOutcome: @unchecked Sendable {
    // @unchecked: both fields are behind `lock`.
    private let lock = NSLock()
    private var storedOutcome: RawLoopbackClient.Outcome?
    private var storedURL: URL?

    var outcome: RawLoopbackClient.Outcome? {
        get { lock.withLock { storedOutcome } }
        set { lock.withLock { storedOutcome = newValue } }
    }

    var url: URL? {
        get { lock.withLock { storedURL } }
        set { lock.withLock { storedURL = newValue } }
    }
}
