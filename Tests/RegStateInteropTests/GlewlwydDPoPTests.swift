import Foundation
import Testing
@testable import RegState

extension InteropTests {
    /// DPoP (RFC 9449) against Glewlwyd, which enforces it: `swift-test-dpop` requires proofs, `--nonce` makes nonces
    /// mandatory, and `swift-test-public` binds the tokens when a proof comes. Registration, renewal with a rotating
    /// key-bound refresh token and authorized userinfo calls, bound end to end.
    @Suite("DPoP against Glewlwyd", .provider(.glewlwyd))
    struct GlewlwydDPoP {
        struct Case: Sendable, CustomTestStringConvertible {
            var clientID: String
            var mode: DPoPMode
            var nonce: Bool
            var testDescription: String { "\(clientID), \(mode.rawValue)\(nonce ? ", --nonce" : "")" }
        }

        @Test("glewlwyd DPoP: registration, renewal and userinfo bound to one key; a stolen token is useless elsewhere",
              arguments: [
                  Case(clientID: "swift-test-dpop", mode: .required, nonce: false),
                  Case(clientID: "swift-test-dpop", mode: .required, nonce: true),
                  Case(clientID: "swift-test-public", mode: .whenOffered, nonce: false),
              ])
        func bound(_ run: Case) async throws {
            // With --nonce, PAR off: Glewlwyd's /par wants a nonce it never sends (pinned in GlewlwydPAR).
            try await withPeer(.glewlwyd, PeerKnobs(dpopNonce: run.nonce, pushedAuthorization: run.nonce ? "off" : nil)) { peer in
                let device = InteropDevice(peer: peer, dpop: run.mode, clientID: run.clientID)
                let service = try await device.register()
                let key = try #require(try DPoPKeyStore(store: device.store, crypto: SystemCrypto()).load())
                #expect(await service.tokenBinding() == .dpop(thumbprint: key.thumbprint))
                let userinfo = peer.issuer.appendingPathComponent("userinfo")
                let authorized = AuthorizedTransport(base: URLSessionTransport(defaultTimeout: 10), service: service,
                                                     policy: TokenPolicy(validatingURLs: [userinfo]))
                #expect(try await authorized.send(HTTPRequest(method: .get, url: userinfo)).status == 200)

                // The access token alone, as Bearer, is refused.
                let token = try #require(await service.runner.tokens.snapshot()?.accessToken)
                var bearer = HTTPRequest(method: .get, url: userinfo)
                bearer.headers["Authorization"] = "Bearer \(token)"
                #expect(try await URLSessionTransport(defaultTimeout: 10).send(bearer).status == 401)

                // Renewal with the key-bound, rotating refresh token.
                let first = try await device.storedRefreshToken()
                #expect(await service.renewSession().session?.activation == .renewed)
                #expect(try await device.storedRefreshToken() != first)
                #expect(await service.tokenBinding() == .dpop(thumbprint: key.thumbprint))
                #expect(try await authorized.send(HTTPRequest(method: .get, url: userinfo)).status == 200)

                // The refresh token without the key: refused, and the session is untouched.
                let refresh = try await device.storedRefreshToken()
                let tokenEndpoint = peer.issuer.appendingPathComponent("token")
                let stolen = try await URLSessionTransport(defaultTimeout: 10).send(.form(url: tokenEndpoint, parameters: [
                    ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", run.clientID),
                ]))
                #expect((400..<500).contains(stolen.status))
                #expect(await service.renewSession().session?.activation == .renewed)
            }
        }

        @Test("glewlwyd DPoP required by the library, Glewlwyd's public client: proofs bind the tokens (token_type DPoP)")
        func requiredAtPublicClient() async throws {
            try await withPeer(.glewlwyd) { peer in
                let device = InteropDevice(peer: peer, dpop: .required)
                let service = try await device.register()
                if case .dpop = await service.tokenBinding() {} else { Issue.record("not bound") }
            }
        }
    }
}
