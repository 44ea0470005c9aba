import Foundation
import RegState
import RegStateTestSupport
import Testing

extension InteropTests {
    /// What only Glewlwyd shows: a retired refresh token refused with HTTP 400 and an empty body, ID tokens signed
    /// ES256 (`GLW_SIGNING=ES256`), and a provider without a revocation endpoint.
    @Suite("Glewlwyd's own habits", .provider(.glewlwyd))
    struct Glewlwyd {
        @Test("glewlwyd: a refresh token retired behind the client's back is refused with a bare 400: asked twice, Error E final, storage cleared, D")
        func retiredTokenBareRefusal() async throws {
            try await withPeer(.glewlwyd) { peer in
                let device = InteropDevice(peer: peer)
                let service = try await device.register()
                let refreshToken = try await device.storedRefreshToken()
                // Another client of the same grant rotates it: the stored refresh token is retired at the provider.
                _ = try await device.oidcClient().refresh(refreshToken: refreshToken)
                #expect(try await peer.isRevoked(refreshToken: refreshToken) == true)

                // What the provider answers, seen from outside: 400 and nothing else.
                let raw = try await URLSessionTransport(defaultTimeout: 10).send(HTTPRequest.form(
                    url: peer.issuer.appendingPathComponent("token"),
                    parameters: [("grant_type", "refresh_token"), ("refresh_token", refreshToken),
                                 ("client_id", peer.clientID)]))
                #expect(raw.status == 400)
                #expect(raw.body.isEmpty)

                let tape = await EventTape(service)
                device.clock.advance(by: 3_601)
                do throws(RegStateServiceError) {
                    _ = try await service.validAccessToken().token
                    Issue.record("renewal with a retired refresh token succeeded")
                } catch {
                    #expect(error == .renewal(.denied(reason: "HTTP 400 without an error body, twice")))
                    #expect(error.lettered?.isRecoverable == false)
                }
                #expect(device.transport.refreshTokensSent == [refreshToken, refreshToken], "asked once more, then decided")
                #expect(await service.state == .registrationRequired)
                #expect(await tape.titles(atLeast: 3) == ["Active H", "Error E", "Registration Required D"])
                tape.close()
                #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
                let journaled = try await service.journalEntries().contains { entry in
                    if case .renewalFailed(.denied(reason: "HTTP 400 without an error body, twice"), _) = entry.event {
                        return true
                    }
                    return false
                }
                #expect(journaled, "the journal says why the session ended")
            }
        }

        @Test("glewlwyd GLW_SIGNING=ES256: registration validates the ES256 ID token (Active H), renewal validates the refreshed one (Active C)")
        func es256RegistrationAndRenewal() async throws {
            try await withPeer(.glewlwyd, PeerKnobs(accessTokenLifetime: 5, signing: "ES256")) { peer in
                let device = InteropDevice(peer: peer, gracePeriod: 1)
                let service = try await device.register()
                let idToken = try JSONWebToken(compact: try #require(await device.tokens.snapshot()?.idToken))
                #expect(idToken.header["alg"]?.stringValue == "ES256")
                let first = try await device.storedRefreshToken()
                device.clock.advance(by: 5)
                _ = try await service.validAccessToken().token
                #expect(await service.state.letter == "C")
                #expect(device.transport.refreshTokensSent == [first])
                #expect(try await peer.refreshTokenLedger() == .init(issued: 2, revoked: 1))
            }
        }

        @Test("glewlwyd CLI --scope openid,email: the authorization request asks for exactly those scopes, Active H")
        func cliScope() async throws {
            // GLW_PAR=off: the scope is read from the plain authorization URL (pushed, it is not in the URL).
            try await withPeer(.glewlwyd, PeerKnobs(pushedAuthorization: "off")) { peer in
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-cli-scope-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                let walkthrough = try CLIProcess(["--store", store.path, "--issuer", peer.issuer.absoluteString,
                                                  "--client-id", peer.clientID, "--scope", "openid,email", "--json",
                                                  "walkthrough"])
                walkthrough.send(line: "1")
                let authorize = peer.authorizationEndpoint.absoluteString
                let line = try await walkthrough.stderrLine(where: { $0.hasPrefix(authorize) }, what: "the authorization URL")
                let url = try #require(URL(string: line))
                #expect(FormEncodingProbe.query(of: url)["scope"] == "openid email")
                walkthrough.send(line: try await peer.login(url).absoluteString)
                walkthrough.send(line: "1")
                let run = try await walkthrough.finish()
                #expect(run.status == 0, "walkthrough exit status; stderr: \(run.stderr.suffix(1_500))")
                #expect(CLI.jsonEvents(run.stdout).map(\.letter) == ["D", "G", "H"], "stdout: \(run.stdout)")
            }
        }

        @Test("glewlwyd: logout without a revocation endpoint says so (library .revocationUnsupported, CLI --json \"unsupported\"); the refresh token really stays valid there")
        func logoutWithoutRevocation() async throws {
            try await withPeer(.glewlwyd) { peer in
                let device = InteropDevice(peer: peer)
                let service = try await device.register()
                let refreshToken = try await device.storedRefreshToken()
                let tape = await EventTape(service)
                let result = try await service.logout().result
                #expect(result == .revocationUnsupported)
                #expect(await service.state == .registrationRequired)
                #expect(await tape.titles(atLeast: 2) == ["Active H", "Registration Required D"])
                tape.close()
                #expect(device.transport.revokedTokensSent.isEmpty)
                #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
                // What the result said is true: the provider still holds the token as live and renews with it.
                #expect(try await peer.isRevoked(refreshToken: refreshToken) == false)
                _ = try await device.oidcClient().refresh(refreshToken: refreshToken)

                // The CLI says the same, in --json.
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-cli-logout-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                let common = ["--store", store.path, "--issuer", peer.issuer.absoluteString, "--client-id", peer.clientID]
                let walkthrough = try CLIProcess(common + ["walkthrough"])
                walkthrough.send(line: "1")
                let line = try await walkthrough.stderrLine(where: { $0.hasPrefix(peer.authorizationEndpoint.absoluteString) },
                                                            what: "the authorization URL")
                walkthrough.send(line: try await peer.login(try #require(URL(string: line))).absoluteString)
                walkthrough.send(line: "1")
                let registered = try await walkthrough.finish()
                #expect(registered.status == 0, "stderr: \(registered.stderr.suffix(1_500))")
                let logout = try await CLIProcess.run(common + ["--json", "logout"])
                #expect(logout.status == 0, "stderr: \(logout.stderr.suffix(1_500))")
                let object = logout.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(Data($0.utf8)) }
                    .first { $0.objectValue?["result"]?.stringValue == "logout" }
                #expect(object == ["result": "logout", "loggedOut": true, "revocation": "unsupported"], "stdout: \(logout.stdout)")
                #expect(logout.stderr.contains("stays valid there until it expires"))
            }
        }
    }
}
