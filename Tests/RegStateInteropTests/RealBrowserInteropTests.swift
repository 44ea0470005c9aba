import Foundation
import RegState
import RegStateTestSupport
import Testing

extension InteropTests {
    /// The `regstate` binary with `--loopback` and a real browser (headless Chromium under Selenium, ``RealBrowser``)
    /// against each real provider: the printed authorization URL, the provider's own login and consent pages, its
    /// redirects and cookies, and RegState's loopback listener working together as a person's browser drives them.
    /// Screenshots go to `.build/artifacts/browser/<test>/`.
    @Suite("Real browser (headless Chromium)", .kit(.browser))
    struct RealBrowserTests {
        static let providers: [PeerKind] = [.django, .glewlwyd]

        @Test("one browser: the CLI's URL, the provider's login (and consent) form, the redirect to the loopback listener, H; a second sign-in reuses the provider session (no password); prompt=login asks again; logout's printed end-session URL ends the session (django) or is ignored without id_token_hint (Glewlwyd, pinned)",
              .provider(.django, .glewlwyd), arguments: PeerKind.selecting(providers))
        func signInAndSession(kind: PeerKind) async throws {
            let redirect = try Self.loopbackRedirect()
            let stores = FileManager.default.temporaryDirectory
                .appendingPathComponent("interop-browser-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: stores) }
            try await withPeer(kind, Self.knobs(kind, redirect)) { peer in
                try await withRealBrowser { browser in
                    let shots = try RealBrowser.artifacts("\(kind.rawValue)-sign-in")
                    // 1. The printed URL, the provider's own pages, the listener's page, then H.
                    let first = try await LoopbackWalkthrough.begin(peer, redirect: redirect, stores: stores)
                    let page = try await browser.signIn(first.authorizationURL, until: redirect, as: Self.alice,
                                                        screenshots: shots.appendingPathComponent("alice"))
                    #expect(page.askedPassword && page.typedPassword, "\(page)")
                    #expect(page.url.hasPrefix(redirect.absoluteString + "?"), "\(page)")
                    #expect(page.text.contains("You can close this window"), "\(page)")
                    let run = try await first.confirm()
                    #expect(run.status == 0, "stderr: \(run.stderr.suffix(1_500))")
                    #expect(LoopbackWalkthrough.events(run.stdout).map(\.letter) == ["D", "G", "H"], "stdout: \(run.stdout)")
                    for name in ["alice-login.png", "alice-final.png"] {
                        #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent(name).path), "\(name)")
                    }

                    // 2. Another app installation (another store), the same browser: no password asked.
                    let second = try await LoopbackWalkthrough.begin(peer, redirect: redirect, stores: stores)
                    let reused = try await browser.signIn(second.authorizationURL, until: redirect, as: Self.alice,
                                                          typingPassword: false, screenshots: shots.appendingPathComponent("reused"))
                    #expect(!reused.askedPassword && reused.url.hasPrefix(redirect.absoluteString), "\(reused)")
                    #expect(LoopbackWalkthrough.events(try await second.confirm().stdout).last?.letter == "H")

                    // 3. "Use another account" (prompt=login): the provider asks again although its session is live.
                    // Glewlwyd 2.7.5 ignores a pushed prompt (below), so there the request goes unpushed.
                    let third = try await LoopbackWalkthrough.begin(peer, redirect: redirect, menu: "3",
                                                                    options: ["--par", "off"], stores: stores)
                    #expect(FormEncodingProbe.query(of: third.authorizationURL)["prompt"] == "login")
                    let asked = try await browser.signIn(third.authorizationURL, until: redirect, as: Self.alice,
                                                         typingPassword: false, screenshots: shots.appendingPathComponent("prompt-login"))
                    #expect(asked.askedPassword && !asked.url.hasPrefix(redirect.absoluteString), "\(asked)")
                    let answered = try await browser.signIn(nil, until: redirect, as: Self.alice)
                    #expect(answered.typedPassword && answered.url.hasPrefix(redirect.absoluteString), "\(answered)")
                    #expect(LoopbackWalkthrough.events(try await third.confirm().stdout).last?.letter == "H")
                    if kind == .glewlwyd {
                        // Pinned: pushed (RFC 9126), the same prompt=login reaches Glewlwyd (its redirect echoes
                        // `prompt=login`) but it signs the user in from its session without asking.
                        let pushed = try await LoopbackWalkthrough.begin(peer, redirect: redirect, menu: "3", stores: stores)
                        #expect(FormEncodingProbe.query(of: pushed.authorizationURL)["request_uri"] != nil)
                        let notAsked = try await browser.signIn(pushed.authorizationURL, until: redirect, as: Self.alice,
                                                                typingPassword: false)
                        #expect(!notAsked.askedPassword && notAsked.url.contains("prompt=login"), "\(notAsked)")
                        #expect(LoopbackWalkthrough.events(try await pushed.confirm().stdout).last?.letter == "H")
                    }

                    // 4. Logout prints the end-session URL (never the ID token); the user opens it in this browser.
                    let logout = try await CLIProcess.run(third.common + ["logout", "--json"])
                    #expect(logout.status == 0, "stderr: \(logout.stderr.suffix(1_500))")
                    let printed = try #require(SessionLine.logout(logout.stdout)?["endSession"]?.stringValue,
                                               "no end-session URL: \(logout.stdout) \(logout.stderr)")
                    let endURL = try #require(URL(string: printed))
                    #expect(FormEncodingProbe.query(of: endURL)["id_token_hint"] == nil)
                    let ended = try await browser.endSession(endURL, screenshots: shots.appendingPathComponent("end-session"))

                    // 5. The next sign-in: django asks for the password again. Glewlwyd 2.7.5 answers an end-session
                    // request without id_token_hint with an empty 200 page and keeps the session (OpenID RP-Initiated
                    // Logout 1.0 §2 has the provider ask the user instead); RegState never prints the ID token, so
                    // the printed URL cannot end a Glewlwyd session: pinned.
                    let fourth = try await LoopbackWalkthrough.begin(peer, redirect: redirect, stores: stores)
                    let after = try await browser.signIn(fourth.authorizationURL, until: redirect, as: Self.alice,
                                                         screenshots: shots.appendingPathComponent("after-logout"))
                    if kind == .glewlwyd {
                        #expect(ended.confirmed == 0 && ended.text.isEmpty, "\(ended)")
                        #expect(!after.askedPassword, "\(after)")
                    } else {
                        #expect(ended.confirmed >= 1, "django asks to confirm a logout without id_token_hint: \(ended)")
                        #expect(after.askedPassword && after.typedPassword, "\(after)")
                    }
                    #expect(LoopbackWalkthrough.events(try await fourth.confirm().stdout).last?.letter == "H")
                }
            }
        }

        @Test("tampered redirects typed into the browser: state and iss refused with their reasons, the login kept for the genuine redirect; a tampered code refused by the provider ends the login (F), a new one then completes",
              .provider(.django, .glewlwyd), arguments: PeerKind.selecting(providers))
        func tamperedRedirects(kind: PeerKind) async throws {
            let redirect = try Self.loopbackRedirect()
            let stores = FileManager.default.temporaryDirectory
                .appendingPathComponent("interop-browser-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: stores) }
            try await withPeer(kind, Self.knobs(kind, redirect)) { peer in
                try await withRealBrowser { browser in
                    let shots = try RealBrowser.artifacts("\(kind.rawValue)-tampered")
                    // Not pushed (--par off), so the browser's URL shows the state a forger would copy.
                    let walkthrough = try await LoopbackWalkthrough.begin(peer, redirect: redirect, options: ["--par", "off"], stores: stores)
                    let state = try #require(FormEncodingProbe.query(of: walkthrough.authorizationURL)["state"])
                    let forgedState = try #require(URL(string: "\(redirect.absoluteString)?code=forged&state=not-\(state)"))
                    _ = try await browser.open(forgedState, screenshot: shots.appendingPathComponent("forged-state.png"))
                    _ = try await walkthrough.process.stderrLine(where: { $0.contains("(state_mismatch)") }, what: "the state refusal")
                    let otherIssuer = "http://127.0.0.1:1/attacker"
                    let forgedIssuer = try #require(URL(string: "\(redirect.absoluteString)?code=forged&state=\(state)&iss=\(otherIssuer)"))
                    _ = try await browser.open(forgedIssuer)
                    _ = try await walkthrough.process.stderrLine(where: { $0.contains("(issuer_mismatch_in_callback)") },
                                                                 what: "the iss refusal")
                    // The genuine redirect still completes the same login.
                    let genuine = try await browser.signIn(walkthrough.authorizationURL, until: redirect, as: Self.alice,
                                                           screenshots: shots.appendingPathComponent("genuine"))
                    #expect(FormEncodingProbe.query(of: try #require(URL(string: genuine.url)))["state"] == state)
                    let run = try await walkthrough.confirm()
                    let events = LoopbackWalkthrough.events(run.stdout)
                    #expect(events.map(\.letter) == ["D", "F", "F", "G", "H"], "stdout: \(run.stdout)")
                    #expect(events.compactMap(\.reason) == ["state_mismatch", "issuer_mismatch_in_callback"])

                    // A tampered code with the genuine state: only the provider can tell; its refusal ends the login.
                    let next = try await LoopbackWalkthrough.begin(peer, redirect: redirect, options: ["--par", "off"], stores: stores)
                    let nextState = try #require(FormEncodingProbe.query(of: next.authorizationURL)["state"])
                    let forgedCode = try #require(URL(string: "\(redirect.absoluteString)?code=tampered-code&state=\(nextState)"))
                    _ = try await browser.open(forgedCode, screenshot: shots.appendingPathComponent("forged-code.png"))
                    next.process.send(line: "1")
                    let authorize = peer.authorizationEndpoint.absoluteString
                    let first = next.authorizationURL.absoluteString
                    let again = try await next.process.stderrLine(where: { $0.hasPrefix(authorize) && $0 != first },
                                                                  what: "a new authorization URL")
                    let reused = try await browser.signIn(URL(string: again), until: redirect, as: Self.alice,
                                                          typingPassword: false)
                    #expect(!reused.askedPassword, "\(reused)")
                    let after = try await next.confirm()
                    let letters = LoopbackWalkthrough.events(after.stdout)
                    // F, then the menu again from F: a new login (no D between), G, H.
                    #expect(letters.map(\.letter) == ["D", "F", "G", "H"], "stdout: \(after.stdout)")
                    #expect(letters.compactMap(\.reason) == ["token_request_failed"], "stdout: \(after.stdout)")
                }
            }
        }

        // MARK: Set-up

        static let alice = (username: "alice", password: PeerAccount.alice.password)

        /// A loopback redirect URI on a port nobody uses now, for the CLI's listener.
        static func loopbackRedirect() throws -> URL {
            try #require(URL(string: "http://127.0.0.1:\(try PeerProcess.freePort())/callback"))
        }

        /// Glewlwyd registers `redirect` (it compares a loopback URI's port exactly) and lists its end-session
        /// endpoint; django accepts any loopback port and always has one.
        static func knobs(_ kind: PeerKind, _ redirect: URL) -> PeerKnobs {
            var knobs = PeerKnobs()
            if kind == .glewlwyd {
                knobs.redirectURIs = [redirect]
                knobs.endSession = true
            }
            return knobs
        }
    }
}

/// One `regstate walkthrough --loopback --json` against a real provider, with a store of its own: begun up to the
/// printed authorization URL, confirmed after the browser delivered the redirect.
struct LoopbackWalkthrough {
    let process: CLIProcess
    let store: URL
    /// `--store`, `--issuer` and `--client-id`, for later commands on the same store.
    let common: [String]
    /// The URL the CLI printed for the browser.
    let authorizationURL: URL

    /// Starts the walkthrough and answers the menu with `menu` (1 social login, 3 with `prompt=login`).
    /// The store is a new directory under `stores` (the test removes that when done).
    static func begin(_ peer: any Peer, redirect: URL, menu: String = "1", options: [String] = [],
                      stores: URL) async throws -> Self {
        let store = stores.appendingPathComponent(UUID().uuidString, isDirectory: true)
        let common = ["--store", store.path, "--issuer", peer.issuer.absoluteString, "--client-id", peer.clientID]
        let process = try CLIProcess(common + options + ["--redirect-uri", redirect.absoluteString, "--loopback", "--json",
                                                         "walkthrough"])
        process.send(line: menu)
        let authorize = peer.authorizationEndpoint.absoluteString
        let line = try await process.stderrLine(where: { $0.hasPrefix(authorize) }, what: "the authorization URL")
        return Self(process: process, store: store, common: common, authorizationURL: try #require(URL(string: line)))
    }

    /// Once the redirect reached the listener: confirms (G → H) and waits for the CLI to end.
    func confirm() async throws -> CLIResult {
        process.send(line: "1")
        return try await process.finish()
    }

    /// The lettered events of a `--json` run's stdout, with an error event's reason code.
    static func events(_ stdout: String) -> [(letter: String, reason: String?)] {
        stdout.split(separator: "\n").compactMap { line in
            guard let object = (try? JSONValue.parse(Data(line.utf8)))?.objectValue,
                  let letter = object["letter"]?.stringValue else { return nil }
            return (letter, object["reason"]?.stringValue)
        }
    }
}
