import Foundation
import RegState
import RegStateTestSupport
import Testing

extension InteropTests {
    /// Sign in on another device (RFC 8628) with the `regstate` binary against django-oauth-toolkit 3.4.1, the user
    /// played by the real browser (headless Chromium, ``RealBrowser``) on the provider's own pages: the verification
    /// URI the CLI printed, the login form, the user-code form, Accept or Deny. Screenshots go to
    /// `.build/artifacts/browser/django-device-*`.
    ///
    /// Pinned: django-oauth-toolkit's device grant answers an openid-scoped poll without an ID token (its
    /// `DeviceCodeGrant` is oauthlib's OAuth 2 grant, with no OpenID modifier), so RegState, which registers only a
    /// validated identity, ends in F (`malformed_response`) — never H, and nothing is stored. Its discovery announces
    /// no `device_authorization_endpoint`, so the CLI is given it (`--device-authorization-endpoint`).
    @Suite("Sign in on another device (real browser)")
    struct DeviceAuthorization {
        static let alice = (username: "alice", password: PeerAccount.alice.password)

        /// The CLI's `device-login --json` against the django kit's device client, the browser answering `decision`;
        /// returns the run and the printed `signInOnAnotherDevice` object.
        static func deviceLogin(_ peer: any Peer, browser: RealBrowser, decision: String, shots: URL) async throws
            -> (run: CLIResult, shown: [String: JSONValue])
        {
            let store = FileManager.default.temporaryDirectory
                .appendingPathComponent("interop-device-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: store) }
            let endpoint = peer.issuer.absoluteString + "/device-authorization/"
            let child = try CLIProcess(["device-login", "--json", "--store", store.path,
                                        "--issuer", peer.issuer.absoluteString, "--client-id", "swift-device-client",
                                        "--device-authorization-endpoint", endpoint])
            let line = try await child.stdoutLine(where: { $0.contains("\"signInOnAnotherDevice\"") },
                                                  what: "the code and the page")
            let shown = try #require((try? JSONValue.parse(Data(line.utf8)))?.objectValue)
            let userCode = try #require(shown["userCode"]?.stringValue)
            let page = try #require(shown["verificationURIComplete"]?.stringValue.flatMap(URL.init(string:))
                                        ?? shown["verificationURI"]?.stringValue.flatMap(URL.init(string:)))
            let run: CLIResult
            do {
                _ = try await browser.approveDevice(page, userCode: userCode, as: alice, decision: decision,
                                                    screenshots: shots.appendingPathComponent("browser"))
                run = try await child.finish()
            } catch {
                _ = try? await child.finish()
                throw error
            }
            #expect(!FileManager.default.fileExists(atPath: store.appendingPathComponent("secure/credentials").path))
            #expect(!FileManager.default.fileExists(
                atPath: store.appendingPathComponent("secure/pending_device_authorization").path))
            return (run, shown)
        }

        /// The reason of the last lettered F the run printed.
        static func reason(_ stdout: String) -> String? {
            stdout.split(separator: "\n").compactMap { (try? JSONValue.parse(Data($0.utf8)))?.objectValue }
                .last { $0["letter"]?.stringValue == "F" }?["reason"]?.stringValue
        }

        @Test("django: the browser approves the printed code; the token answer has no ID token, pinned: F malformed_response, nothing stored; then it denies the next code: F authorization_denied")
        func django() async throws {
            try await withPeer(.django) { peer in
                try await withRealBrowser { browser in
                    let shots = try RealBrowser.artifacts("django-device-approved")
                    let (run, shown) = try await Self.deviceLogin(peer, browser: browser, decision: "accept", shots: shots)
                    #expect(shown["verificationURI"]?.stringValue == peer.issuer.absoluteString + "/device/")
                    #expect(shown["interval"]?.numberValue == 5)
                    #expect(run.status == 1, "stderr: \(run.stderr.suffix(1_500))")
                    #expect(Self.reason(run.stdout) == "malformed_response", "stdout: \(run.stdout)")
                    #expect(run.stdout.contains("no id_token"), "stdout: \(run.stdout)")
                    for name in ["code.png", "question.png", "final.png"] {
                        #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent("browser-\(name)").path))
                    }
                    // The same browser (still signed in at the provider) denies the next code.
                    let denied = try await Self.deviceLogin(peer, browser: browser, decision: "deny",
                                                            shots: try RealBrowser.artifacts("django-device-denied"))
                    #expect(denied.run.status == 1, "stderr: \(denied.run.stderr.suffix(1_500))")
                    #expect(Self.reason(denied.run.stdout) == "authorization_denied", "stdout: \(denied.run.stdout)")
                }
            }
        }
    }
}
