import Foundation
import RegStateTestSupport
import RegState
import Testing

extension InteropTests {
    /// The `regstate` binary against django-oauth-toolkit (issue 20): the menu follows discovery (no email: django
    /// lists no one-time-code grant), and logout prints the end-session URL without the ID token, which the user opens
    /// in the browser they signed in with.
    @Suite("CLI against django: capabilities and end-session", .provider(.django))
    struct CLIEndSession {
        @Test("django: the walkthrough offers no email and says why; logout prints the end-session URL (no id_token_hint); opening it and confirming ends the browser session")
        func menuAndPrintedEndSession() async throws {
            try await withInteropPeer { peer in
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-cli-endsession-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                let common = ["--store", store.path, "--issuer", peer.issuer.absoluteString, "--client-id", peer.clientID]
                let browser = try Browser(origin: peer.origin)

                let walkthrough = try CLIProcess(common + ["walkthrough"])
                walkthrough.send(line: "2")   // not offered: asked again
                walkthrough.send(line: "1")
                let authorize = peer.authorizationEndpoint.absoluteString
                let line = try await walkthrough.stderrLine(where: { $0.hasPrefix(authorize) }, what: "the authorization URL")
                let login = try await browser.open(try #require(URL(string: line)))
                #expect(login.isLoginForm)
                guard case .left(let callback) = try await browser.signIn(login, username: "alice",
                                                                          password: PeerAccount.alice.password) else {
                    Issue.record("no callback")
                    return
                }
                walkthrough.send(line: callback.absoluteString)
                walkthrough.send(line: "1")
                let run = try await walkthrough.finish()
                #expect(run.status == 0, "stderr: \(run.stderr.suffix(1_500))")
                #expect(!run.stderr.contains("2  Email"))
                #expect(run.stderr.contains("Email (one-time code) is not offered: this provider's discovery does not"
                                            + " list the one-time-code grant"))
                #expect(run.stderr.contains("Please answer 1, 3, 4, q."))
                let tokens = TokenService(store: try FileSecureStore(directory: store.appendingPathComponent("secure")))
                let idToken = try #require(await tokens.snapshot()?.idToken)

                let logout = try await CLIProcess.run(common + ["logout", "--json"])
                #expect(logout.status == 0, "stderr: \(logout.stderr.suffix(1_500))")
                let printed = try #require(logout.stderr.split(separator: "\n").last { $0.hasPrefix(peer.issuer.absoluteString + "/logout/") },
                                           "no end-session URL printed: \(logout.stderr)")
                #expect(!logout.stdout.contains(idToken) && !logout.stderr.contains(idToken))
                let url = try #require(URL(string: String(printed)))
                #expect(FormEncodingProbe.query(of: url)["id_token_hint"] == nil)
                #expect(FormEncodingProbe.query(of: url)["client_id"] == peer.clientID)
                let line2 = SessionLine.logout(logout.stdout)
                #expect(line2?["revocation"]?.stringValue == "revoked")
                #expect(line2?["endSession"]?.stringValue == String(printed))

                // The user opens it in the browser they signed in with: django asks to confirm (no hint), they do.
                let asked = try await browser.open(url)
                guard case .page(_, let html) = asked, html.contains("name=\"allow\"") else {
                    Issue.record("django did not ask to confirm: \(asked)")
                    return
                }
                _ = try await browser.submit(asked, ["allow": "Logout"])
                // The next sign-in asks for the user.
                let again = try CLIProcess(common + ["walkthrough"])
                again.send(line: "1")
                let next = try await again.stderrLine(where: { $0.hasPrefix(authorize) }, what: "the authorization URL")
                #expect(try await browser.open(try #require(URL(string: next))).isLoginForm)
                again.closeInput()
                _ = try await again.finish()
            }
        }
    }
}

/// The `--json` result line of a command on stdout.
enum SessionLine {
    /// The object whose `result` is `logout`.
    static func logout(_ stdout: String) -> [String: JSONValue]? {
        stdout.split(separator: "\n").compactMap { (try? JSONValue.parse(Data($0.utf8)))?.objectValue }
            .first { $0["result"]?.stringValue == "logout" }
    }
}
