import Foundation
import RegState
import RegStateTesting
import Testing

extension InteropTests {
    /// Issue 20 against django-oauth-toolkit (RP-initiated logout enabled, `end_session_endpoint` `/o/logout/`): the
    /// engine's ``EndSessionRequest`` ends the provider's browser session, and `prompt=login` lets another user sign
    /// in while the browser is still signed in. The user is a ``Browser`` whose cookie jar lives across visits, as a
    /// real browser's does; the second user is seeded by the harness into this test's provider.
    @Suite("django: end-session logout and switching accounts", .provider(.django))
    struct EndSessionInterop {
        /// Social sign-in in `browser`: the authorization URL, the login form when the provider shows it (as
        /// `account`), the callback; then completion. Returns the profile and whether a login form was shown.
        static func signIn(_ service: RegStateService, _ browser: Browser, _ url: URL,
                           as account: PeerAccount) async throws -> (profile: Profile, askedForLogin: Bool) {
            var visit = try await browser.open(url)
            let askedForLogin = visit.isLoginForm
            if askedForLogin {
                visit = try await browser.signIn(visit, username: account.username, password: account.password)
            }
            guard case .left(let callback) = visit else {
                throw InteropError.scriptFailed("the authorization did not reach the callback: \(visit)")
            }
            return (try await service.completeSocialRegistration(callback: callback), askedForLogin)
        }

        /// Opens the end-session URL in `browser`; when the provider asks to confirm the logout, presses "Logout"
        /// as the user would. Returns where the browser was sent and whether a confirmation was asked.
        static func endSession(_ url: URL, in browser: Browser) async throws -> (visit: Browser.Visit, confirmed: Bool) {
            let visit = try await browser.open(url)
            guard case .page(_, let html) = visit, html.contains("name=\"allow\"") else { return (visit, false) }
            return (try await browser.submit(visit, ["allow": "Logout"]), true)
        }

        @Test("logout's end-session request (id_token_hint, client_id, post_logout_redirect_uri) ends the browser session: the next authorization shows the login again")
        func endSessionEndsBrowserSession() async throws {
            try await withInteropPeer { peer in
                let device = InteropDevice(peer: peer, postLogoutRedirect: InteropPeer.postLogoutRedirect)
                let browser = try Browser(origin: peer.origin)
                let service = device.launch()
                #expect(await service.start() == .registrationRequired)
                let first = try await service.beginSocialRegistration()
                let registered = try await Self.signIn(service, browser, first, as: .alice)
                #expect(registered.askedForLogin)
                #expect(registered.profile.subject == PeerAccount.alice.subject)
                #expect(try await service.confirmRegistration().activation == .registered)
                let idToken = try #require(await device.tokens.snapshot()?.idToken)
                // While the browser session lives, the provider authorizes without asking for the user.
                guard case .left = try await browser.open(first) else {
                    Issue.record("the live browser session still asked for a login")
                    return
                }

                let loggedOut = try await service.logout()
                #expect(loggedOut.result == .revoked)
                let request = try #require(loggedOut.endSession, "django offers end_session_endpoint")
                #expect(request.url.absoluteString.hasPrefix(peer.issuer.absoluteString + "/logout/"))
                let query = FormEncodingProbe.query(of: request.url)
                #expect(query["client_id"] == InteropPeer.clientID)
                #expect(query["post_logout_redirect_uri"] == InteropPeer.postLogoutRedirect.absoluteString)
                #expect(query["id_token_hint"] == idToken)
                #expect(FormEncodingProbe.query(of: request.displayURL)["id_token_hint"] == nil)
                #expect(!"\(request)".contains(idToken))

                let ended = try await Self.endSession(request.url, in: browser)
                // The hint names the signed-in user, so django ends the session without asking (OIDC RP-Initiated
                // Logout §2: a confirmation is only required without a matching hint).
                #expect(!ended.confirmed)
                guard case .left(let landing) = ended.visit else {
                    Issue.record("the end-session visit did not reach the post-logout redirect: \(ended.visit)")
                    return
                }
                #expect(landing == InteropPeer.postLogoutRedirect)

                // The provider forgot the user: a new authorization (no login typed) shows the login form again.
                let second = try await service.beginSocialRegistration()
                let again = try await browser.open(second)
                #expect(again.isLoginForm, "after end-session: \(again)")
                // And the login form still leads to a registration.
                let back = try await browser.signIn(again, username: "alice", password: PeerAccount.alice.password)
                guard case .left(let callback) = back else {
                    Issue.record("no callback after the second login: \(back)")
                    return
                }
                #expect(try await service.completeSocialRegistration(callback: callback).subject == PeerAccount.alice.subject)
            }
        }

        @Test("the printed end-session URL (no id_token_hint): django asks to confirm; confirming ends the browser session")
        func printedURLAsksToConfirm() async throws {
            try await withInteropPeer { peer in
                let device = InteropDevice(peer: peer, postLogoutRedirect: InteropPeer.postLogoutRedirect)
                let browser = try Browser(origin: peer.origin)
                let service = device.launch()
                #expect(await service.start() == .registrationRequired)
                _ = try await Self.signIn(service, browser, try await service.beginSocialRegistration(), as: .alice)
                try await service.confirmRegistration()
                let request = try #require(try await service.logout().endSession)

                // What the CLI prints for a real provider: without the hint, the provider must ask the user.
                let ended = try await Self.endSession(request.displayURL, in: browser)
                #expect(ended.confirmed, "django ended the session without asking: \(ended.visit)")
                guard case .left(let landing) = ended.visit else {
                    Issue.record("confirming did not reach the post-logout redirect: \(ended.visit)")
                    return
                }
                #expect(landing == InteropPeer.postLogoutRedirect)
                let again = try await browser.open(try await service.beginSocialRegistration())
                #expect(again.isLoginForm, "after a confirmed end-session: \(again)")
            }
        }

        @Test("with alice's browser session live: no prompt signs alice in again; prompt=login shows the login, bob signs in, the registration is bob's")
        func promptLoginSwitchesAccount() async throws {
            try await withInteropPeer { peer in
                let bob = try await peer.addUser("bob", password: "bob-password", email: "bob@example.com",
                                                 firstName: "Bob", lastName: "Test")
                #expect(bob.subject != PeerAccount.alice.subject)
                let device = InteropDevice(peer: peer)
                let browser = try Browser(origin: peer.origin)
                let service = device.launch()
                #expect(await service.start() == .registrationRequired)
                _ = try await Self.signIn(service, browser, try await service.beginSocialRegistration(), as: .alice)
                try await service.confirmRegistration()
                try await service.logout()   // the app's logout only: the browser stays signed in as alice

                // Seed 002's "switch to a different account": without a prompt, the provider signs alice in again.
                let plain = try await Self.signIn(service, browser, try await service.beginSocialRegistration(), as: bob)
                #expect(!plain.askedForLogin)
                #expect(plain.profile.subject == PeerAccount.alice.subject)
                try await service.retryRegistration()

                // "Use another account": prompt=login makes the provider ask although the browser is signed in.
                let url = try await service.beginSocialRegistration(prompt: .login)
                #expect(FormEncodingProbe.query(of: url)["prompt"] == "login")
                let switched = try await Self.signIn(service, browser, url, as: bob)
                #expect(switched.askedForLogin)
                #expect(switched.profile.subject == bob.subject)
                #expect(switched.profile.email == bob.email)
                let session = try await service.confirmRegistration()
                #expect(session.activation == .registered)
                #expect(session.profile?.subject == bob.subject)

                // The browser session is bob's now: the next plain sign-in is bob without a login.
                try await service.logout()
                let next = try await Self.signIn(service, browser, try await service.beginSocialRegistration(), as: .alice)
                #expect(!next.askedForLogin)
                #expect(next.profile.subject == bob.subject)
            }
        }
    }
}
