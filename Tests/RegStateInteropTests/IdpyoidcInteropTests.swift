import Foundation
import RegState
import RegStateTestSupport
import Testing

extension InteropTests {
    /// idpyoidc's own habits (`Tests/Peers/idpyoidc`, one provider for the suite): what it offers and where it departs
    /// from the RFCs. Each departure is pinned as the typed answer RegState gives, never worked around in the library.
    @Suite("idpyoidc's own habits", .provider(.idpyoidc), .peers([.idpyoidc], PeerKnobs()))
    struct IdpyoidcHabits {
        static let knobs = PeerKnobs()

        static func discovery(_ peer: any Peer) async throws -> (ProviderMetadata, [String: Any]) {
            let url = peer.issuer.appendingPathComponent(".well-known/openid-configuration")
            let answer = try await URLSessionTransport(defaultTimeout: 10).send(HTTPRequest(method: .get, url: url))
            #expect(answer.status == 200)
            let fields = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            return (try ProviderMetadata.read(discovery: answer.body), fields)
        }

        @Test("idpyoidc discovery: the issuer exactly, PKCE, revocation and end-session listed; no RFC 9207 flag although every response carries iss; no 'none' auth method although the public client uses it")
        func discovery() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let (metadata, fields) = try await Self.discovery(peer)
                #expect(metadata.issuer == peer.issuer.absoluteString)
                #expect(metadata.codeChallengeMethodsSupported?.contains("S256") == true)
                #expect(metadata.revocationEndpoint == peer.issuer.appendingPathComponent("revocation"))
                #expect(metadata.endSessionEndpoint == peer.issuer.appendingPathComponent("session"))
                #expect(metadata.scopesSupported == ["openid", "profile", "email", "offline_access"])
                // Departures, documented in docs/Providers.md: RegState reads them as a provider that does not say.
                #expect(metadata.authorizationResponseIssParameterSupported == nil)
                #expect(!metadata.requiresCallbackIssuer)
                #expect((fields["token_endpoint_auth_methods_supported"] as? [String])?.contains("none") == false)
                #expect(metadata.pushedAuthorizationRequestEndpoint == nil, "PAR is a knob (IDPY_PAR)")
                #expect(!metadata.offersDPoP, "DPoP is a knob (IDPY_DPOP)")
            }
        }

        /// OIDC Core §11: "When offline access is requested, a prompt parameter value of consent MUST be used unless
        /// other conditions for processing the request permitting offline access to the requested resources are in
        /// place." idpyoidc allows no other condition and refuses the request, and answers the browser itself
        /// (400 JSON) instead of redirecting the error to the client (RFC 6749 §4.1.2.1), so the app hears nothing:
        /// the login stays pending. An app at idpyoidc configures `prompt=consent`, as the other tests here do.
        @Test("idpyoidc: offline_access without prompt=consent is refused in the browser (400 invalid_request 'consent in prompt', OIDC Core §11), never redirected; the login stays pending and the app is not told")
        func offlineAccessNeedsConsent() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, authorizationParameters: [:])
                let service = device.launch()
                #expect(await service.start() == .registrationRequired)
                let url = try await service.beginSocialRegistration()
                #expect(FormEncodingProbe.query(of: url)["prompt"] == nil)
                #expect(FormEncodingProbe.query(of: url)["scope"]?.contains("offline_access") == true)
                do {
                    _ = try await peer.login(url)
                    Issue.record("idpyoidc accepted offline_access without prompt=consent")
                } catch InteropError.scriptFailed(let answer) {
                    #expect(answer.contains("400"), "\(answer)")
                    #expect(answer.contains("consent in prompt"), "\(answer)")
                }
                #expect(await service.pendingSocialLogin() != nil)
                #expect(await service.state == .authenticating(.social))
            }
        }

        @Test("idpyoidc RFC 9207: every callback carries iss; one naming another issuer is refused (issuerMismatchInCallback) and spends nothing: the genuine callback then reaches Active H")
        func callbackIssuer() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer)
                let service = device.launch()
                await service.start()
                let callback = try await peer.login(try await service.beginSocialRegistration())
                #expect(FormEncodingProbe.query(of: callback)["iss"] == peer.issuer.absoluteString)
                var tampered = try #require(URLComponents(url: callback, resolvingAgainstBaseURL: false))
                tampered.queryItems = tampered.queryItems?.map { item in
                    item.name == "iss" ? URLQueryItem(name: "iss", value: "http://127.0.0.1:1") : item
                }
                let forged = try #require(tampered.url)
                let refusal = await #expect(throws: RegStateServiceError.self) {
                    try await service.completeSocialRegistration(callback: forged)
                }
                #expect(refusal == .registration(.issuerMismatchInCallback))
                // The forged redirect spent nothing: the login is still pending and the genuine redirect finishes it.
                #expect(await service.state == .authenticating(.social))
                try await service.completeSocialRegistration(callback: callback)
                #expect(try await service.confirmRegistration().activation == .registered)
            }
        }

        @Test("idpyoidc swift-test-es256: registration validates the ES256 ID token (Active H); a renewal validates the refreshed one (Active C)")
        func es256() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, clientID: IdpyoidcPeer.es256ClientID)
                let service = try await device.register()
                let first = try JSONWebToken(compact: try #require(await device.tokens.snapshot()?.idToken))
                #expect(first.algorithm == "ES256")
                #expect(await service.renewSession().session?.activation == .renewed)
                let renewed = try JSONWebToken(compact: try #require(await device.tokens.snapshot()?.idToken))
                #expect(renewed.algorithm == "ES256")
                #expect(renewed.subject == first.subject)
            }
        }

        /// RFC 8252 §7.3: the provider "MUST allow any port to be specified at the time of the request for loopback IP
        /// redirect URIs". idpyoidc compares them exactly (as Glewlwyd does), so a native app's listener must take the
        /// registered port. The library's loopback test uses the registered `http://127.0.0.1:8765/callback`.
        @Test("idpyoidc: a loopback redirect URI on another port than the registered one is refused in the browser (400 'Doesn't match any registered uris', RFC 8252 §7.3 asks any port)")
        func loopbackPortExact() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, redirectURI: URL(string: "http://127.0.0.1:9/callback"))
                let service = device.launch()
                await service.start()
                do {
                    _ = try await peer.login(try await service.beginSocialRegistration())
                    Issue.record("idpyoidc took a loopback redirect URI on an unregistered port")
                } catch InteropError.scriptFailed(let answer) {
                    #expect(answer.contains("Doesn't match any registered uris"), "\(answer)")
                }
            }
        }

        /// The CLI adds no `prompt`, so its default scopes (`offline_access`) meet the OIDC Core §11 refusal above;
        /// without `offline_access` it registers, with no refresh token to keep.
        @Test("idpyoidc CLI walkthrough --scope openid,profile,email: social login to Active H (no refresh token: the CLI cannot ask prompt=consent); status gives Active B")
        func cliWithoutOfflineAccess() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-cli-idpyoidc-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                let common = ["--store", store.path, "--issuer", peer.issuer.absoluteString, "--client-id", peer.clientID,
                              "--scope", "openid,profile,email"]
                let walkthrough = try CLIProcess(common + ["--json", "walkthrough"])
                walkthrough.send(line: "1")
                let line = try await walkthrough.stderrLine(where: { $0.hasPrefix(peer.authorizationEndpoint.absoluteString) },
                                                            what: "the authorization URL")
                let url = try #require(URL(string: line))
                #expect(FormEncodingProbe.query(of: url)["scope"] == "openid profile email")
                walkthrough.send(line: try await peer.login(url).absoluteString)
                walkthrough.send(line: "1")
                let run = try await walkthrough.finish()
                #expect(run.status == 0, "walkthrough exit status; stderr: \(run.stderr.suffix(1_500))")
                #expect(CLI.jsonEvents(run.stdout).map(\.letter) == ["D", "G", "H"], "stdout: \(run.stdout)")
                let status = try await CLIProcess.run(common + ["status"])
                #expect(status.status == 0, "status exit status; stderr: \(status.stderr.suffix(1_500))")
                #expect(status.stdout.contains("Active B"), "stdout: \(status.stdout)")
            }
        }

        /// idpyoidc 5.0.0's end-session endpoint fails every request: `Session.parse_request` reads a bearer token
        /// from the client authentication result, which the `none`/`public` methods (the only ones a browser's
        /// request can match) do not return (`KeyError: 'token'`), answered 400. RegState's end-session request is
        /// well formed (django ends its session with the same request); the provider session survives.
        @Test("idpyoidc end-session: RegState's request (id_token_hint, client_id, post_logout_redirect_uri) is refused by idpyoidc 5.0.0 (400 invalid_request \"'token'\"), so the browser session survives: the next authorization signs in without a password")
        func endSessionRefused() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, postLogoutRedirect: URL(string: "http://127.0.0.1:8765/logged-out"))
                let browser = try Browser(origin: peer.issuer)
                let service = device.launch()
                await service.start()
                let login = try await browser.open(try await service.beginSocialRegistration())
                #expect(login.isLoginForm)
                guard case .left(let callback) = try await browser.signIn(login, username: "alice", password: "alice-password")
                else { throw InteropError.scriptFailed("no callback after the login form") }
                try await service.completeSocialRegistration(callback: callback)
                #expect(try await service.confirmRegistration().activation == .registered)

                let loggedOut = try await service.logout()
                #expect(loggedOut.result == .revoked)
                let request = try #require(loggedOut.endSession, "idpyoidc lists end_session_endpoint")
                #expect(request.url.absoluteString.hasPrefix(peer.issuer.appendingPathComponent("session").absoluteString))
                guard case .page(_, let refusal) = try await browser.open(request.url) else {
                    Issue.record("idpyoidc's end-session endpoint no longer refuses: pin the working flow instead")
                    return
                }
                #expect(refusal.contains("invalid_request") && refusal.contains("'token'"), "\(refusal.prefix(300))")
                // The provider session lives on: single sign-on without the login form.
                guard case .left = try await browser.open(try await service.beginSocialRegistration()) else {
                    Issue.record("the provider session ended after all")
                    return
                }
            }
        }
    }
}
