import Foundation
import RegStateTestSupport
import RegState
import Testing

extension InteropTests {
    /// The `regstate` binary against each real provider with `--issuer`: the walkthrough's social path with the
    /// user played by the peer's login script, then `status`, then `logout`, each a separate run sharing one `--store`.
    @Suite("CLI against real providers")
    struct CLI {
        /// Not idpyoidc: it refuses `offline_access` without `prompt=consent` (OIDC Core §11) and the CLI adds no
        /// `prompt`; its own CLI case is in ``IdpyoidcHabits``.
        @Test("walkthrough --issuer: social login to Active H; status gives Active B; logout (revoking where the provider can), then D",
              .provider(.django, .glewlwyd), arguments: PeerKind.selecting([PeerKind.django, .glewlwyd]))
        func walkthroughStatusLogout(kind: PeerKind) async throws {
            try await withPeer(kind) { peer in
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-cli-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                let common = ["--store", store.path, "--issuer", peer.issuer.absoluteString,
                              "--client-id", peer.clientID]

                // The walkthrough: D, menu 1 Social, the authorization URL on its own line (stderr), the redirect
                // pasted back, G, menu 1 Confirm, H.
                let walkthrough = try CLIProcess(common + ["--json", "walkthrough"])
                walkthrough.send(line: "1")
                let authorize = peer.authorizationEndpoint.absoluteString
                let line = try await walkthrough.stderrLine(where: { $0.hasPrefix(authorize) }, what: "the authorization URL")
                let url = try #require(URL(string: line))
                let callback = try await peer.login(url)
                walkthrough.send(line: callback.absoluteString)
                walkthrough.send(line: "1")
                let run = try await walkthrough.finish()
                #expect(run.status == 0, "walkthrough exit status; stderr: \(run.stderr.suffix(1_500))")
                let events = Self.jsonEvents(run.stdout)
                #expect(events.map(\.letter) == ["D", "G", "H"], "stdout: \(run.stdout)")
                #expect(events.map(\.event) == ["registrationRequired", "awaitingConfirmation", "sessionActive"])

                // What the CLI stored is a live refresh token at the provider.
                let tokens = TokenService(store: try FileSecureStore(directory: store.appendingPathComponent("secure")))
                let refreshToken = try #require(await tokens.snapshot()?.refreshToken, "the CLI stored no refresh token")
                #expect(try await peer.isRevoked(refreshToken: refreshToken) == false)

                // A later run: the stored token is still valid, Active B.
                let status = try await CLIProcess.run(common + ["status"])
                #expect(status.status == 0, "status exit status; stderr: \(status.stderr.suffix(1_500))")
                #expect(status.stdout.contains("Active B"), "stdout: \(status.stdout)")

                // logout revokes the refresh token at a provider that can, and clears local data either way.
                let logout = try await CLIProcess.run(common + ["logout"])
                #expect(logout.status == 0, "logout exit status; stderr: \(logout.stderr.suffix(1_500))")
                let told = peer.supportsRevocation ? "the provider revoked the refresh token" : "the provider offers no revocation"
                #expect(logout.stdout.contains(told), "stdout: \(logout.stdout)")
                #expect(try await peer.isRevoked(refreshToken: refreshToken) == peer.supportsRevocation)
                #expect(await tokens.snapshot()?.refreshToken == nil)
                let after = try await CLIProcess.run(common + ["--json", "status"])
                #expect(after.status == 3, "status after logout; stderr: \(after.stderr.suffix(1_500))")
                #expect(Self.jsonEvents(after.stdout).map(\.letter) == ["D"])
            }
        }

        /// django only: Glewlwyd 2.7.5 compares a loopback redirect URI exactly, port included (403 for any port
        /// but the registered `http://127.0.0.1/callback`), although RFC 8252 §7.3 asks providers to accept any port;
        /// the CLI's listener cannot take port 80. The library's loopback test runs against both.
        @Test("django: walkthrough --issuer --loopback: the redirect is caught on 127.0.0.1, no pasting, Active H", .provider(.django))
        func loopbackWalkthrough() async throws {
            try await withPeer(.django) { peer in
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-cli-loopback-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                let walkthrough = try CLIProcess([
                    "--store", store.path, "--issuer", peer.issuer.absoluteString, "--client-id", peer.clientID,
                    // Port 0: the listener takes a free port; the provider accepts any loopback port (RFC 8252 §7.3),
                    // so parallel runs on one machine cannot collide on a fixed one.
                    "--redirect-uri", "http://127.0.0.1:0/callback", "--loopback", "--json", "walkthrough"])
                walkthrough.send(line: "1")
                let authorize = peer.authorizationEndpoint.absoluteString
                let line = try await walkthrough.stderrLine(where: { $0.hasPrefix(authorize) }, what: "the authorization URL")
                let callback = try await peer.login(try #require(URL(string: line)))
                #expect(callback.scheme == "http" && callback.host == "127.0.0.1" && callback.path == "/callback")
                #expect(callback.port != nil && callback.port != 0 && callback.port != 8765)
                // The browser follows the provider's redirect to the CLI's listener.
                let page = try await URLSessionTransport(defaultTimeout: 20).send(HTTPRequest(method: .get, url: callback))
                #expect(page.status == 200)
                walkthrough.send(line: "1")
                let run = try await walkthrough.finish()
                #expect(run.status == 0, "walkthrough exit status; stderr: \(run.stderr.suffix(1_500))")
                #expect(Self.jsonEvents(run.stdout).map(\.letter) == ["D", "G", "H"], "stdout: \(run.stdout)")
            }
        }

        /// The `letter` and `event` of each JSON line on stdout.
        static func jsonEvents(_ stdout: String) -> [(letter: String, event: String)] {
            stdout.split(separator: "\n").compactMap { line in
                guard let object = (try? JSONValue.parse(Data(line.utf8)))?.objectValue,
                      let letter = object["letter"]?.stringValue, let event = object["event"]?.stringValue
                else { return nil }
                return (letter, event)
            }
        }
    }
}
