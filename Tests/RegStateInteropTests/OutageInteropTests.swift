import Foundation
import RegState
import Testing
import RegStateTesting
import RegStateTestSupport

extension InteropTests {
    /// The provider unreachable: killed (connection refused) or paused (timeouts). Renewal is a recoverable Error E, the
    /// session stays active offline with its data; once the provider is back, renewal gives Active C.
    @Suite("Provider down and back")
    struct Outage {
        @Test("provider killed: Error E recoverable, session kept offline with its tokens; restarted: Active C",
              .provider(.django, .glewlwyd, .idpyoidc), arguments: PeerKind.selecting(PeerKind.allCases))
        func providerKilled(kind: PeerKind) async throws {
            try await withPeer(kind) { peer in
                let device = InteropDevice(peer: peer)
                _ = try await device.register()
                let refreshToken = try await device.storedRefreshToken()
                await peer.terminate()
                device.useTimeout(5)

                device.clock.advance(by: 3_601)
                let service = device.launch()
                let tape = await EventTape(service)
                let state = await service.start()
                let session = try #require(state.session, "expected an active offline session, got \(state)")
                #expect(session.connectivity == .offline(.noInternet))
                let events = await tape.events(atLeast: 2)
                #expect(events.map(\.title) == ["Error E", "Active B"])
                if case .error(let error) = events.first {
                    #expect(error.isRecoverable)
                    #expect(error == .renewal(.transient(.noInternet)))
                }
                #expect(try await device.storedRefreshToken() == refreshToken, "offline keeps every token")
                // Logout needs the provider: refused, nothing changes.
                await #expect(throws: RegStateServiceError.offline(.noInternet)) { try await service.logout() }
                #expect(try await device.storedRefreshToken() == refreshToken)

                try await peer.restart()
                device.useTimeout(nil)
                #expect(await service.renewSession().letter == "C")
                #expect(await tape.titles(atLeast: 3).last == "Active C")
                tape.close()
                let renewed = try #require(await service.state.session, "not active after the renewal")
                #expect(renewed.connectivity == .online)
                #expect(try await device.storedRefreshToken() != refreshToken)
                #expect(device.transport.refreshTokensSent.last == refreshToken)
                #expect(try await peer.refreshTokenLedger() == .init(issued: 2, revoked: 1))
            }
        }

        /// A refresh that times out may still be processed by the provider once it runs again: it rotates the token
        /// while the client never sees the answer, and the client's retry presents the retired token (finding 4).
        /// django-oauth-toolkit's `REFRESH_TOKEN_GRACE_PERIOD_SECONDS` (Auth0's "reuse interval", Okta's "grace
        /// period") answers such a retry with the pair it already issued; this provider runs with 30 seconds. The
        /// test waits until the provider has processed the lost request, so the retry always comes second.
        @Test("django: provider paused: the refresh times out, Error E recoverable, offline; resumed: Active C within the reuse grace", .provider(.django))
        func providerPaused() async throws {
            try await withPeer(.django, PeerKnobs(refreshGrace: 30)) { peer in
                let (device, service, refreshToken, tape) = try await Self.refreshLostToTimeout(peer)
                #expect(await service.renewSession().letter == "C")
                #expect(device.transport.refreshTokensSent == [refreshToken, refreshToken])
                let titles = await tape.titles(atLeast: 4)
                #expect(titles == ["Active H", "Error E", "Active H", "Active C"])
                tape.close()
                #expect(try await device.storedRefreshToken() != refreshToken)
                let accessToken = try await service.validAccessToken().token
                let subject = try await peer.aliceSubject()
                let claims = try await device.oidcClient().userInfo(accessToken: accessToken, subject: subject)
                #expect(claims["sub"]?.stringValue == subject)
                #expect(try await peer.refreshTokenLedger() == .init(issued: 2, revoked: 1))
            }
        }

        /// The same outage without a grace period: the retry presents a retired token and the provider refuses it —
        /// an explicit denial of the token an interrupted renewal presented, so Error E final with
        /// `interruptedRenewalRefused` (the lost answer is named as the cause), storage cleared, D. Deterministic
        /// because the test waits until the provider has processed the lost request. django says `invalid_grant`
        /// and revokes the whole family; Glewlwyd (which has no grace) answers HTTP 400 with an empty body, twice,
        /// which the answer rule reads as a refusal, and revokes the family too; idpyoidc says `invalid_request`
        /// ("Refresh token inactive", where RFC 6749 §5.2 says `invalid_grant`), an RFC 6749 refusal code all the
        /// same, and has no reuse detection: the token the lost answer carried stays live there, unknown to anyone.
        @Test("provider paused, no reuse grace: the retry after a lost rotation is refused, Error E final, D",
              .provider(.django, .glewlwyd, .idpyoidc), arguments: PeerKind.selecting(PeerKind.allCases))
        func providerPausedWithoutGrace(kind: PeerKind) async throws {
            try await withPeer(kind, PeerKnobs(refreshGrace: 0)) { peer in
                let (device, service, refreshToken, tape) = try await Self.refreshLostToTimeout(peer)
                #expect(await service.renewSession() == .registrationRequired)
                // The lost request, then the refused retry; Glewlwyd's bare 400 is asked once more before it counts.
                let sends = kind == .glewlwyd ? 3 : 2
                #expect(device.transport.refreshTokensSent == Array(repeating: refreshToken, count: sends))
                let events = await tape.events(atLeast: 5)
                #expect(events.map(\.title) == ["Active H", "Error E", "Active H", "Error E", "Registration Required D"])
                if events.count == 5, case .error(let error) = events[3] {
                    #expect(error == .renewal(.interruptedRenewalRefused(reason: peer.refusalReason)))
                }
                tape.close()
                #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
                if kind == .idpyoidc {
                    #expect(try await peer.refreshTokenLedger() == .init(issued: 2, revoked: 1), "idpyoidc: no reuse detection")
                } else {
                    #expect(try await peer.refreshTokenLedger() == .init(issued: 2, revoked: 2), "reuse revoked the family")
                }
            }
        }

        /// Registers, pauses the provider, lets a renewal time out (recoverable E, offline, tokens kept), resumes the
        /// provider and waits until it has processed the lost refresh request.
        private static func refreshLostToTimeout(_ peer: any Peer) async throws
            -> (InteropDevice, RegStateService, String, EventTape<RegStateEvent>)
        {
            let device = InteropDevice(peer: peer)
            let service = try await device.register()
            let refreshToken = try await device.storedRefreshToken()
            let tape = await EventTape(service)
            // The provider is paused as the refresh grant leaves (the renewal fetches the issuer's keys afresh first,
            // and no grant would leave without them). Only the requests to the paused provider run on a short fuse;
            // registration and the key fetch had the ordinary timeout.
            device.atNextRefreshGrant { [device] in
                peer.pause()
                device.useTimeout(2)
            }
            device.clock.advance(by: 3_601)
            do throws(RegStateServiceError) {
                _ = try await service.validAccessToken().token
                Issue.record("renewal succeeded against a paused provider")
            } catch {
                #expect(error.lettered?.isRecoverable == true)
                #expect(error.lettered?.letter == "E")
            }
            peer.resume()
            device.useTimeout(nil)
            let state = await service.state
            let session = try #require(state.session, "expected an active offline session, got \(state)")
            #expect(session.connectivity != .online)
            #expect(try await device.storedRefreshToken() == refreshToken, "offline keeps every token")
            #expect(device.transport.refreshTokensSent == [refreshToken])
            // The provider now reads the request the client gave up on, and rotates.
            #expect(try await peer.waitForLedger(issued: 2) == .init(issued: 2, revoked: 1))
            return (device, service, refreshToken, tape)
        }
    }
}
