import Foundation
import RegState
import RegStateTestSupport
import Testing

extension InteropTests {
    /// Step-up (issue 45) against a real provider in the real browser (headless Chromium): alice signs in, and after the
    /// window a step-up with `max_age` has the provider ask for the password again in the same browser (its session
    /// kept) and `auth_time` move; a step-up as another user (bob) is refused with the record byte-identical.
    /// idpyoidc does all of it (its kit threaded, `PeerKnobs/threaded`, so Chromium's idle connections do not hold
    /// it); Glewlwyd does neither (pinned below and in docs/Providers.md). The window is one second of the provider's
    /// own clock: the test waits two (the provider's clock is not ours to move).
    @Suite("Step-up against real providers (headless Chromium)", .kit(.browser))
    struct StepUpBrowserTests {
        static let providers: [PeerKind] = [.idpyoidc, .glewlwyd]
        static let alice = (username: "alice", password: PeerAccount.alice.password)
        static let bob = (username: "bob", password: "bob-password")

        @Test("a step-up with max_age after the window in the browser: idpyoidc (its session kept: no password within the window) asks for the password again in the same browser and auth_time moves; Glewlwyd 2.7.5 (pinned) signs the user in from its session without asking and its auth_time is not the sign-in's, so RegState refuses the step-up (sign_in_too_old); at both a step-up as bob is refused, the record byte-identical",
              .provider(.idpyoidc, .glewlwyd), arguments: PeerKind.selecting(providers))
        func stepUpInBrowser(kind: PeerKind) async throws {
            let redirect = kind == .idpyoidc ? try #require(URL(string: "http://127.0.0.1:8765/callback"))
                : try RealBrowserTests.loopbackRedirect()
            var knobs = PeerKnobs()
            if kind == .glewlwyd { knobs.redirectURIs = [redirect] }
            knobs.threaded = kind == .idpyoidc
            try await withPeer(kind, knobs) { peer in
                try await withRealBrowser { browser in
                    let shots = try RealBrowser.artifacts("\(kind.rawValue)-step-up")
                    let device = InteropDevice(peer: peer, redirectURI: redirect)
                    let service = device.launch()
                    await service.start()
                    let first = try await browser.signIn(try await service.beginSocialRegistration(), until: redirect,
                                                         as: Self.alice, screenshots: shots.appendingPathComponent("alice"))
                    try await service.completeSocialRegistration(callback: try #require(URL(string: first.url)))
                    try await service.confirmRegistration()
                    let before = try #require(await service.signInAssurance()?.authenticatedAt, "no auth_time")
                    if kind == .idpyoidc {
                        // Within the window the provider signs alice in from its session: the session is kept, and
                        // only max_age makes it ask below.
                        let within = try await service.beginStepUp(requirement: AuthenticationRequirement(maxAge: 3_600))
                        let kept = try await browser.signIn(within, until: redirect, as: Self.alice, typingPassword: false,
                                                            screenshots: shots.appendingPathComponent("within"))
                        #expect(!kept.askedPassword && kept.url.hasPrefix(redirect.absoluteString), "\(kept)")
                        let same = try await service.completeStepUp(callback: try #require(URL(string: kept.url)))
                        #expect(same.authenticatedAt == before, "\(same)")
                    }

                    try await Task.sleep(for: .seconds(2))  // the provider's one-second window passes
                    let url = try await service.beginStepUp(requirement: AuthenticationRequirement(maxAge: 1))
                    #expect(FormEncodingProbe.query(of: url)["max_age"] == "1" || FormEncodingProbe.query(of: url)["request_uri"] != nil)
                    let again = try await browser.signIn(url, until: redirect, as: Self.alice,
                                                         screenshots: shots.appendingPathComponent("step-up"))
                    if kind == .glewlwyd {
                        // Pinned (docs/Providers.md): Glewlwyd 2.7.5 signs the user in from its session without asking,
                        // whatever max_age says, and its ID token's auth_time is not the sign-in's: RegState refuses the
                        // step-up (sign_in_too_old) and the session is left exactly as it was.
                        #expect(!again.askedPassword, "\(again)")
                        let record = try device.store.data(forKey: "credentials")
                        let callback = try #require(URL(string: again.url))
                        let result: Result<SignInAssurance, RegStateServiceError>
                        do throws(RegStateServiceError) {
                            result = .success(try await service.completeStepUp(callback: callback))
                        } catch {
                            result = .failure(error)
                        }
                        guard case .failure(.registration(.signInTooOld(let at))) = result else {
                            Issue.record("Glewlwyd's step-up without a new sign-in: \(result)")
                            return
                        }
                        #expect(at <= before, "Glewlwyd's auth_time: \(at), the first sign-in's: \(before)")
                        #expect(try device.store.data(forKey: "credentials") == record)
                        #expect(await service.state.letter == "H")

                        // bob signs in at Glewlwyd (login.py, a session of its own: the browser's is alice's, and
                        // Glewlwyd would sign her in from it) for a step-up without max_age (Glewlwyd's auth_time
                        // would be refused first): another user, refused, the record byte-identical.
                        guard let glewlwyd = peer as? GlewlwydPeer else { throw InteropError.scriptFailed("not Glewlwyd") }
                        let other = try await service.beginStepUp(requirement: AuthenticationRequirement())
                        let bob = try await glewlwyd.login(other, user: Self.bob.username, password: Self.bob.password,
                                                           redirect: redirect)
                        await #expect(throws: RegStateServiceError.registration(.anotherUser)) {
                            try await service.completeStepUp(callback: bob)
                        }
                        #expect(try device.store.data(forKey: "credentials") == record)
                        return
                    }
                    #expect(again.askedPassword && again.typedPassword, "\(again)")
                    let assurance = try await service.completeStepUp(callback: try #require(URL(string: again.url)))
                    #expect(try #require(assurance.authenticatedAt) > before, "auth_time did not move: \(assurance)")
                    #expect(await service.state.letter == "C")

                    guard kind == .idpyoidc else { return }
                    let record = try device.store.data(forKey: "credentials")
                    try await Task.sleep(for: .seconds(2))
                    let other = try await service.beginStepUp(requirement: AuthenticationRequirement(maxAge: 1))
                    let bobPage = try await browser.signIn(other, until: redirect, as: Self.bob,
                                                           screenshots: shots.appendingPathComponent("bob"))
                    #expect(bobPage.askedPassword, "\(bobPage)")
                    await #expect(throws: RegStateServiceError.registration(.anotherUser)) {
                        try await service.completeStepUp(callback: try #require(URL(string: bobPage.url)))
                    }
                    #expect(try device.store.data(forKey: "credentials") == record)
                }
            }
        }
    }

    /// Step-up against idpyoidc, whose user the kit's `login.py` plays (no browser, no provider session: every
    /// sign-in types the password): `auth_time` moves with a new sign-in, `acr` is the class asked for (the browser
    /// test above asks no `acr`), and another user's step-up is refused with the session's record byte-identical.
    @Suite("Step-up against idpyoidc", .provider(.idpyoidc), .peers([.idpyoidc], PeerKnobs()))
    struct StepUpIdpyoidcTests {
        /// idpyoidc's password class (its `INTERNETPROTOCOLPASSWORD`), the one its kit's login method offers.
        static let passwordClass = "urn:oasis:names:tc:SAML:2.0:ac:classes:InternetProtocolPassword"

        @Test("idpyoidc: max_age after the window and a required acr: auth_time moves, acr is the class asked for, the tokens are replaced; another user (bob) is refused and the record is byte-identical")
        func stepUp() async throws {
            try await withPeer(.idpyoidc, PeerKnobs()) { peer in
                let device = InteropDevice(peer: peer)
                let service = device.launch()
                await service.start()
                guard let idpyoidc = peer as? IdpyoidcPeer else { throw InteropError.scriptFailed("not idpyoidc") }
                try await service.completeSocialRegistration(
                    callback: try await idpyoidc.login(try await service.beginSocialRegistration()))
                try await service.confirmRegistration()
                let before = try #require(await service.signInAssurance()?.authenticatedAt, "no auth_time")

                try await Task.sleep(for: .seconds(2))  // the one-second window passes on idpyoidc's clock
                let requirement = AuthenticationRequirement(maxAge: 1, acrValues: [Self.passwordClass], acrRequired: true)
                let url = try await service.beginStepUp(requirement: requirement)
                let assurance = try await service.completeStepUp(callback: try await idpyoidc.login(url))
                #expect(try #require(assurance.authenticatedAt) > before, "auth_time did not move: \(assurance)")
                #expect(assurance.acr == Self.passwordClass)
                #expect(await service.state.letter == "C")

                let record = try device.store.data(forKey: "credentials")
                let other = try await service.beginStepUp(requirement: AuthenticationRequirement(maxAge: 60))
                let callback = try await idpyoidc.login(other, user: "bob", password: "bob-password")
                await #expect(throws: RegStateServiceError.registration(.anotherUser)) {
                    try await service.completeStepUp(callback: callback)
                }
                #expect(try device.store.data(forKey: "credentials") == record)
            }
        }
    }
}
