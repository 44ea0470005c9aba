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
    /// Two device clients (the kit's `device.py`, docs/Providers.md): `swift-device-oidc-client` has a signing
    /// algorithm, so the kit's server adds oauthlib's OpenID ID token to its device token answers, and the CLI ends in
    /// H. `swift-device-client` is stock: django-oauth-toolkit's device grant answers it without an ID token (oauthlib's
    /// `DeviceCodeGrant` has no OpenID modifier), so RegState, which registers only a validated identity, ends in F
    /// (`malformed_response`), nothing stored (pinned). Also pinned: discovery announces no
    /// `device_authorization_endpoint` (the CLI is given it, `--device-authorization-endpoint`), and the token endpoint
    /// never says `expired_token` (an expired code's poll is still `authorization_pending`): RegState stops at the
    /// code's `expires_in` by its own clock.
    @Suite("Sign in on another device (real browser)", .peers([.django]))
    struct DeviceAuthorization {
        static let alice = (username: "alice", password: PeerAccount.alice.password)
        /// The stock device client (no ID token) and the one whose answers carry oauthlib's ID token.
        static let stockClient = "swift-device-client", openIDClient = "swift-device-oidc-client"

        /// The arguments of the CLI's `device-login --json` against the django kit with `clientID`.
        static func arguments(_ peer: any Peer, clientID: String, store: URL) -> [String] {
            ["device-login", "--json", "--store", store.path, "--issuer", peer.issuer.absoluteString,
             "--client-id", clientID, "--device-authorization-endpoint", peer.issuer.absoluteString + "/device-authorization/"]
        }

        /// The CLI's `device-login --json` against the django kit's `clientID`, the browser answering `decision`;
        /// returns the run, the printed `signInOnAnotherDevice` object and whether the store holds credentials and a
        /// pending authorization afterwards.
        static func deviceLogin(_ peer: any Peer, clientID: String, browser: RealBrowser, decision: String, shots: URL)
            async throws -> (run: CLIResult, shown: [String: JSONValue], credentials: Bool, pending: Bool, deviceCode: String)
        {
            try await deviceLogin({ arguments(peer, clientID: clientID, store: $0) }, browser: browser,
                                  decision: decision, shots: shots)
        }

        /// The CLI run with `arguments` (given the store directory), the browser answering `decision` on the page
        /// the CLI printed; returns the run, the printed `signInOnAnotherDevice` object and whether the store holds
        /// credentials and a pending authorization afterwards. The device code (read from the secure store while the
        /// CLI waits) is in none of what the run printed, its journal, or the pages the browser saw.
        static func deviceLogin(_ arguments: (URL) -> [String], browser: RealBrowser, decision: String, shots: URL)
            async throws -> (run: CLIResult, shown: [String: JSONValue], credentials: Bool, pending: Bool, deviceCode: String)
        {
            let store = FileManager.default.temporaryDirectory
                .appendingPathComponent("interop-device-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: store) }
            let child = try CLIProcess(arguments(store))
            let line = try await child.stdoutLine(where: { $0.contains("\"signInOnAnotherDevice\"") },
                                                  what: "the code and the page")
            let shown = try #require((try? JSONValue.parse(Data(line.utf8)))?.objectValue)
            let userCode = try #require(shown["userCode"]?.stringValue)
            let page = try #require(shown["verificationURIComplete"]?.stringValue.flatMap(URL.init(string:))
                                        ?? shown["verificationURI"]?.stringValue.flatMap(URL.init(string:)))
            let deviceCode = try #require(Self.pendingDeviceCode(in: store), "the pending authorization is stored")
            let run: CLIResult
            let seen: RealBrowser.Page
            do {
                seen = try await browser.approveDevice(page, userCode: userCode, as: alice, decision: decision,
                                                       screenshots: shots.appendingPathComponent("browser"))
                run = try await child.finish()
            } catch {
                _ = try? await child.finish()
                throw error
            }
            Self.expectNowhere(deviceCode, in: run, store: store)
            #expect(!seen.text.contains(deviceCode) && !seen.url.contains(deviceCode))
            let stored = { (name: String) in
                FileManager.default.fileExists(atPath: store.appendingPathComponent("secure/\(name)").path)
            }
            return (run, shown, stored("credentials"), stored("pending_device_authorization"), deviceCode)
        }

        /// The device code of the authorization pending in the CLI store `store` (its secure store's record).
        static func pendingDeviceCode(in store: URL) -> String? {
            FileManager.default.contents(atPath: store.appendingPathComponent("secure/pending_device_authorization").path)
                .flatMap { try? JSONValue.parse($0) }?["deviceCode"]?.stringValue
        }

        /// The device code is in nothing the run printed and in no line of the store's journal.
        static func expectNowhere(_ deviceCode: String, in run: CLIResult, store: URL,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
            let journal = (try? String(contentsOf: store.appendingPathComponent("journal.log"), encoding: .utf8)) ?? ""
            #expect(!journal.isEmpty, sourceLocation: sourceLocation)
            for (name, text) in [("stdout", run.stdout), ("stderr", run.stderr), ("journal", journal)] {
                #expect(!text.contains(deviceCode), "the device code in the \(name)", sourceLocation: sourceLocation)
            }
        }

        /// The reason of the last lettered F the run printed.
        static func reason(_ stdout: String) -> String? {
            stdout.split(separator: "\n").compactMap { (try? JSONValue.parse(Data($0.utf8)))?.objectValue }
                .last { $0["letter"]?.stringValue == "F" }?["reason"]?.stringValue
        }

        /// The letters of the lettered events the run printed, in order.
        static func letters(_ stdout: String) -> [String] {
            stdout.split(separator: "\n").compactMap { (try? JSONValue.parse(Data($0.utf8)))?.objectValue?["letter"]?.stringValue }
        }

        @Test("django, the OpenID device client: the browser approves the printed code, the CLI ends in H (G first), the credentials stored and the pending authorization gone; then it denies the next code: F authorization_denied, nothing stored")
        func djangoOpenID() async throws {
            try await withPeer(.django) { peer in
                try await withRealBrowser { browser in
                    let shots = try RealBrowser.artifacts("django-device-approved")
                    let approved = try await Self.deviceLogin(peer, clientID: Self.openIDClient, browser: browser,
                                                              decision: "accept", shots: shots)
                    #expect(approved.shown["verificationURI"]?.stringValue == peer.issuer.absoluteString + "/device/")
                    #expect(approved.shown["interval"]?.numberValue == 5)
                    #expect(approved.run.status == 0, "stderr: \(approved.run.stderr.suffix(1_500))")
                    #expect(Self.letters(approved.run.stdout) == ["D", "G", "H"], "stdout: \(approved.run.stdout)")
                    #expect(approved.run.stdout.contains("\"issuer\":\"\(peer.issuer.absoluteString)\""))
                    #expect(approved.credentials && !approved.pending)
                    // Pinned: django answers the used code with new tokens again (RFC 6749 wants a grant used once);
                    // RegState took the first answer and polls no more.
                    let again = try await Self.poll(peer, deviceCode: approved.deviceCode, clientID: Self.openIDClient)
                    #expect(again.status == 200 && (try? JSONValue.parse(again.body))?["access_token"] != nil,
                            "django's answer to the used code: HTTP \(again.status)")
                    for name in ["code.png", "question.png", "final.png"] {
                        #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent("browser-\(name)").path))
                    }
                    // The same browser (still signed in at the provider) denies the next code.
                    let denied = try await Self.deviceLogin(peer, clientID: Self.openIDClient, browser: browser,
                                                            decision: "deny", shots: try RealBrowser.artifacts("django-device-denied"))
                    #expect(denied.run.status == 1, "stderr: \(denied.run.stderr.suffix(1_500))")
                    #expect(Self.reason(denied.run.stdout) == "authorization_denied", "stdout: \(denied.run.stdout)")
                    #expect(!denied.credentials && !denied.pending)
                }
            }
        }

        @Test("django, the OpenID device client: a second CLI on the same store shows the same code (no second authorization); both killed (SIGKILL) while the user approves in the browser, the next launch goes on with the same code and ends in H")
        func djangoKilledResumes() async throws {
            try await withPeer(.django) { peer in
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-device-killed-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                let arguments = Self.arguments(peer, clientID: Self.openIDClient, store: store)
                let isShown: @Sendable (String) -> Bool = { $0.contains("\"signInOnAnotherDevice\"") }
                let shownCode = { (line: String) in (try? JSONValue.parse(Data(line.utf8)))?["userCode"]?.stringValue }
                let first = try CLIProcess(arguments)
                let firstCode = try #require(shownCode(try await first.stdoutLine(where: isShown, what: "the code")))
                let second = try CLIProcess(arguments)
                let secondCode = shownCode(try await second.stdoutLine(where: isShown, what: "the second run's code"))
                #expect(secondCode == firstCode, "a second process takes the pending authorization up")
                let deviceCode = try #require(Self.pendingDeviceCode(in: store))
                let killed = [try await first.sigkill(), try await second.sigkill()]
                #expect(killed.allSatisfy { $0.status != 0 })
                #expect(Self.pendingDeviceCode(in: store) == deviceCode, "the pending authorization outlives the kill")
                try await withRealBrowser { browser in
                    _ = try await browser.approveDevice(
                        try #require(URL(string: peer.issuer.absoluteString + "/device/?user_code=\(firstCode)")),
                        userCode: firstCode, as: Self.alice, screenshots: try RealBrowser.artifacts("django-device-killed")
                            .appendingPathComponent("browser"))
                }
                let relaunch = try await CLIProcess.run(arguments)
                #expect(relaunch.status == 0, "stderr: \(relaunch.stderr.suffix(1_500))")
                let resumed = relaunch.stdout.split(separator: "\n").first { isShown(String($0)) }.flatMap { shownCode(String($0)) }
                #expect(resumed == firstCode, "the relaunch goes on with the same code")
                #expect(Self.letters(relaunch.stdout).suffix(2) == ["G", "H"], "stdout: \(relaunch.stdout)")
                #expect(Self.pendingDeviceCode(in: store) == nil)
                #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("secure/credentials").path))
                for run in killed + [relaunch] { Self.expectNowhere(deviceCode, in: run, store: store) }
            }
        }

        /// One token request with `deviceCode`, as a client polls (RFC 8628 §3.4).
        static func poll(_ peer: any Peer, deviceCode: String, clientID: String) async throws -> HTTPResponse {
            try await URLSessionTransport(defaultTimeout: 10).send(.form(url: peer.issuer.appendingPathComponent("token/"), parameters: [
                ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode), ("client_id", clientID),
            ]))
        }

        @Test("django's departures, pinned: discovery announces no device_authorization_endpoint; two polls of a fresh code at once are both authorization_pending (never slow_down); an unknown code is 404 device_not_found")
        func djangoDepartures() async throws {
            try await withPeer(.django) { peer in
                let transport = URLSessionTransport(defaultTimeout: 10)
                let discovery = try await transport.send(HTTPRequest(
                    method: .get, url: peer.issuer.appendingPathComponent(".well-known/openid-configuration")))
                let document = try #require((try? JSONValue.parse(discovery.body))?.objectValue)
                #expect(document["token_endpoint"] != nil)
                #expect(document["device_authorization_endpoint"] == nil)
                let own = try await transport.send(.form(url: peer.issuer.appendingPathComponent("device-authorization/"),
                                                         parameters: [("client_id", Self.openIDClient), ("scope", "openid")]))
                let deviceCode = try #require((try? JSONValue.parse(own.body))?["device_code"]?.stringValue)
                for _ in 0..<2 {
                    let answer = try await Self.poll(peer, deviceCode: deviceCode, clientID: Self.openIDClient)
                    #expect((try? JSONValue.parse(answer.body))?["error"]?.stringValue == "authorization_pending")
                }
                let unknown = try await Self.poll(peer, deviceCode: "no-such-code", clientID: Self.openIDClient)
                #expect(unknown.status == 404)
                #expect((try? JSONValue.parse(unknown.body))?["error"]?.stringValue == "device_not_found")
            }
        }

        @Test("django, the stock device client: the browser approves the printed code; the token answer has no ID token, pinned: F malformed_response, nothing stored")
        func djangoStock() async throws {
            try await withPeer(.django) { peer in
                try await withRealBrowser { browser in
                    let shots = try RealBrowser.artifacts("django-device-stock")
                    let stock = try await Self.deviceLogin(peer, clientID: Self.stockClient, browser: browser,
                                                           decision: "accept", shots: shots)
                    #expect(stock.run.status == 1, "stderr: \(stock.run.stderr.suffix(1_500))")
                    #expect(Self.reason(stock.run.stdout) == "malformed_response", "stdout: \(stock.run.stdout)")
                    #expect(stock.run.stdout.contains("no id_token"), "stdout: \(stock.run.stdout)")
                    #expect(!stock.credentials && !stock.pending)
                }
            }
        }

        @Test("django: a code nobody approves ends the CLI in F code_expired at its expiry, nothing stored; pinned: django still answers authorization_pending for an expired code")
        func djangoExpiry() async throws {
            var knobs = PeerKnobs()
            knobs.deviceCodeLifetime = 6
            try await withPeer(.django, knobs) { peer in
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-device-expiry-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                // A device code of the test's own, to ask django about once it has expired.
                let transport = URLSessionTransport(defaultTimeout: 10)
                let own = try await transport.send(.form(url: peer.issuer.appendingPathComponent("device-authorization/"),
                                                         parameters: [("client_id", Self.openIDClient), ("scope", "openid")]))
                let deviceCode = try #require((try? JSONValue.parse(own.body))?["device_code"]?.stringValue)
                let run = try await CLIProcess.run(Self.arguments(peer, clientID: Self.openIDClient, store: store))
                #expect(run.status == 1, "stderr: \(run.stderr.suffix(1_500))")
                let objects = run.stdout.split(separator: "\n").compactMap { (try? JSONValue.parse(Data($0.utf8)))?.objectValue }
                #expect(objects.first { $0["event"]?.stringValue == "signInOnAnotherDevice" }?["expiresAt"] != nil)
                #expect(objects.last?["reason"]?.stringValue == "code_expired", "stdout: \(run.stdout)")
                for record in ["credentials", "pending_device_authorization"] {
                    #expect(!FileManager.default.fileExists(atPath: store.appendingPathComponent("secure/\(record)").path))
                }
                let late = try await transport.send(.form(url: peer.issuer.appendingPathComponent("token/"), parameters: [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode),
                    ("client_id", Self.openIDClient),
                ]))
                #expect((try? JSONValue.parse(late.body))?["error"]?.stringValue == "authorization_pending",
                        "django's answer to an expired code: \(String(decoding: late.body, as: UTF8.self))")
            }
        }
    }
}
