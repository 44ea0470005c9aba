import Foundation
import RegState
import Testing
import RegStateTesting
import RegStateTestSupport

extension InteropTests {
    /// The library against each real provider: registration, relaunch, userinfo; against the providers with an
    /// RFC 7009 endpoint (django-oauth-toolkit, idpyoidc) also revocation at logout and a refusal after revocation
    /// (Glewlwyd has none: see ``Glewlwyd``).
    ///
    /// One provider of each kind serves the whole suite (``SuitePeers``): every test reads and revokes only the
    /// tokens of its own registration.
    @Suite("Library against real providers", .peers(PeerKind.allCases))
    struct Library {
        @Test("social registration with a custom-scheme redirect reaches Active H; a relaunch gives Active B",
              .provider(.django, .glewlwyd, .idpyoidc), arguments: PeerKind.selecting(PeerKind.allCases))
        func socialRegistrationThenRelaunch(kind: PeerKind) async throws {
            try await withPeer(kind) { peer in
                let device = InteropDevice(peer: peer)
                let service = device.launch()
                let tape = await EventTape(service)
                #expect(await service.start() == .registrationRequired)
                let url = try await service.beginSocialRegistration()
                let query = FormEncodingProbe.query(of: url)
                if peer.offersPushedAuthorization {
                    // RFC 9126: the parameters were pushed; the browser gets the client and the reference only.
                    #expect(Set(query.keys) == ["client_id", "request_uri"])
                } else {
                    #expect(query["code_challenge_method"] == "S256")
                    #expect(query["redirect_uri"] == "com.example.app:/callback")
                }
                // The login script hands back what its user agent made of the Location header: django's login.sh
                // (curl) rewrites com.example.app:/callback into com.example.app://callback/ (finding 1).
                let callback = try await peer.login(url)
                #expect(callback.scheme == "com.example.app")
                let profile = try await service.completeSocialRegistration(callback: callback)
                let subject = try await peer.aliceSubject()
                #expect(profile.subject == subject)
                #expect(profile.issuer == peer.issuer.absoluteString)
                #expect(profile.email == peer.aliceEmail)
                #expect(profile.emailVerified == peer.aliceEmailVerified)
                #expect(profile.name == "Alice Test")
                let session = try await service.confirmRegistration()
                #expect(session.activation == .registered)
                #expect(await tape.titles(atLeast: 3) == ["Registration Required D", "Awaiting Confirmation G", "Active H"])
                tape.close()

                let relaunched = device.launch()
                let relaunchTape = await EventTape(relaunched)
                let state = await relaunched.start()
                #expect(state.letter == "B")
                #expect(await relaunchTape.titles(atLeast: 1) == ["Active B"])
                #expect(device.transport.refreshTokensSent.isEmpty)
                relaunchTape.close()
            }
        }

        @Test("social registration with the loopback redirect URI reaches Active H", .provider(.django, .glewlwyd, .idpyoidc), arguments: PeerKind.selecting(PeerKind.allCases))
        func loopbackRedirectRegistration(kind: PeerKind) async throws {
            try await withPeer(kind) { peer in
                let device = InteropDevice(peer: peer, redirectURI: peer.loopbackRedirect)
                let service = try await device.register()
                #expect(await service.state.letter == "H")
            }
        }

        @Test("userinfo answers for the stored access token with the ID token's subject and the same claims",
              .provider(.django, .glewlwyd, .idpyoidc), arguments: PeerKind.selecting(PeerKind.allCases))
        func userInfoMatchesIDToken(kind: PeerKind) async throws {
            try await withPeer(kind) { peer in
                let device = InteropDevice(peer: peer)
                let service = try await device.register()
                let accessToken = try await service.validAccessToken().token
                let idToken = try JSONWebToken(compact: try #require(await device.tokens.snapshot()?.idToken))
                let claims = try await device.oidcClient().userInfo(accessToken: accessToken,
                                                                        subject: try #require(idToken.subject))
                #expect(claims["sub"]?.stringValue == idToken.subject)
                let subject = try await peer.aliceSubject()
                #expect(idToken.subject == subject)
                #expect(claims["email"]?.stringValue == idToken.claims["email"]?.stringValue)
                #expect(claims["name"]?.stringValue == idToken.claims["name"]?.stringValue)
                // A token the provider does not know is refused with 401.
                await #expect(throws: UserInfoError.unauthorized) {
                    _ = try await device.oidcClient().userInfo(accessToken: "not-a-token", subject: InteropPeer.aliceSubject)
                }
            }
        }

        /// The providers with an RFC 7009 endpoint (Glewlwyd has none: ``Glewlwyd``'s logout test).
        @Test("logout revokes the refresh token at the provider, which then refuses it; local data is cleared (D)",
              .provider(.django, .idpyoidc), arguments: PeerKind.selecting([PeerKind.django, .idpyoidc]))
        func logoutRevokes(kind: PeerKind) async throws {
            try await withPeer(kind) { peer in
                let device = InteropDevice(peer: peer)
                let service = try await device.register()
                let refreshToken = try await device.storedRefreshToken()
                #expect(try await peer.isRevoked(refreshToken: refreshToken) == false)
                let tape = await EventTape(service)
                #expect(try await service.logout().result == .revoked)
                #expect(await service.state == .registrationRequired)
                #expect(await tape.titles(atLeast: 2) == ["Active H", "Registration Required D"])
                tape.close()
                #expect(device.transport.revokedTokensSent == [refreshToken])
                #expect(await device.tokens.snapshot()?.refreshToken == nil)
                #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
                #expect(try await peer.isRevoked(refreshToken: refreshToken) == true)
                let client = device.oidcClient()
                do throws(OIDCError) {
                    _ = try await client.refresh(refreshToken: refreshToken)
                    Issue.record("the provider accepted a revoked refresh token")
                } catch {
                    #expect(error.isRefusal, "expected \(peer.refusalReason), got \(error)")
                }
                // A relaunch finds nothing: D.
                #expect(await device.launch().start() == .registrationRequired)
            }
        }

        @Test("django: stock django-oauth-toolkit lists revocation only in RFC 8414 metadata: the client finds and uses it", .provider(.django))
        func revocationFromAuthorizationServerMetadata() async throws {
            try await withPeer(.django) { peer in
                let device = InteropDevice(peer: peer)
                _ = try await device.register()
                let refreshToken = try await device.storedRefreshToken()
                // The peer adds revocation_endpoint to its OIDC discovery; a stock install does not. Strip it.
                let client = OIDCClient(configuration: device.configuration.oidc,
                                        transport: RecordingTransport.stockDiscovery,
                                        clock: device.clock)
                try await client.revoke(token: refreshToken, hint: .refreshToken)
                #expect(try await peer.isRevoked(refreshToken: refreshToken) == true)
            }
        }

        @Test("a refresh token revoked behind the client's back: renewal gives Error E (final), storage cleared, then D",
              .provider(.django, .idpyoidc), arguments: PeerKind.selecting([PeerKind.django, .idpyoidc]))
        func providerRefusal(kind: PeerKind) async throws {
            try await withPeer(kind) { peer in
                let device = InteropDevice(peer: peer)
                let service = try await device.register()
                let refreshToken = try await device.storedRefreshToken()
                try await device.oidcClient().revoke(token: refreshToken, hint: .refreshToken)
                let tape = await EventTape(service)
                device.clock.advance(by: 3_601)
                do throws(RegStateServiceError) {
                    _ = try await service.validAccessToken().token
                    Issue.record("renewal with a revoked refresh token succeeded")
                } catch {
                    #expect(error == .renewal(.denied(reason: peer.refusalReason)))
                    #expect(error.lettered?.isRecoverable == false)
                }
                #expect(device.transport.refreshTokensSent == [refreshToken])
                #expect(await service.state == .registrationRequired)
                let events = await tape.events(atLeast: 3)
                #expect(events.map(\.title) == ["Active H", "Error E", "Registration Required D"])
                if events.count == 3, case .error(let error) = events[1] { #expect(!error.isRecoverable) }
                tape.close()
                #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
            }
        }
    }
}

/// Reads a URL's query for assertions.
enum FormEncodingProbe {
    static func query(of url: URL) -> [String: String] {
        var result: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            result[item.name] = item.value ?? ""
        }
        return result
    }
}

extension RecordingTransport {
    /// The real provider's answers, but with `revocation_endpoint` removed from its OpenID discovery document, as a
    /// stock django-oauth-toolkit serves it.
    static var stockDiscovery: RecordingTransport {
        RecordingTransport(base: URLSessionTransport(defaultTimeout: 10)) { request, _, base throws(TransportError) in
            var response = try await base.send(request)
            guard request.url.path.hasSuffix("/.well-known/openid-configuration"),
                  var document = response.jsonBody?.objectValue else { return response }
            document["revocation_endpoint"] = nil
            response.body = JSONValue.object(document).serialized()
            return response
        }
    }
}
