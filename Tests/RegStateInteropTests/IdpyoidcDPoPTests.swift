import Foundation
import Testing
@testable import RegState

extension InteropTests {
    /// DPoP (RFC 9449) against idpyoidc 5.0.0 with its DPoP add-on on the token and userinfo endpoints
    /// (`IDPY_DPOP=on`, one provider for the suite). The token endpoint binds (`token_type: DPoP`); userinfo checks
    /// `ath` against the **hex** SHA-256 of the access token where RFC 9449 §4.2 says base64url, so every resource
    /// request RegState makes with a bound token is refused there. RegState keeps the RFC's encoding: pinned.
    @Suite("DPoP against idpyoidc", .provider(.idpyoidc), .peers([.idpyoidc], .idpyoidcDPoP))
    struct IdpyoidcDPoP {
        static let knobs = PeerKnobs.idpyoidcDPoP

        static func key(_ device: InteropDevice) throws -> DPoPKey {
            try #require(try DPoPKeyStore(store: device.store, crypto: SystemCrypto()).load())
        }

        @Test("idpyoidc IDPY_DPOP=on: registration and renewal carry proofs; token_type DPoP, the session bound to the installation's key, the refresh token rotated")
        func bound() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, dpop: .whenOffered)
                let service = try await device.register()
                let key = try Self.key(device)
                #expect(await service.tokenBinding() == .dpop(thumbprint: key.thumbprint))
                let first = try await device.storedRefreshToken()
                #expect(await service.renewSession().session?.activation == .renewed)
                #expect(try await device.storedRefreshToken() != first)
                #expect(await service.tokenBinding() == .dpop(thumbprint: key.thumbprint))
            }
        }

        /// The one difference is the encoding of `ath`: the same key, `htm`, `htu` and token with the hex digest
        /// (built here, by the test, with the library's signer) is accepted. RegState does not send hex: a resource
        /// server following RFC 9449 would refuse it.
        @Test("idpyoidc DPoP ath: RegState's userinfo proof (ath = base64url SHA-256, RFC 9449 §4.2) is refused, 400 invalid_request \"'ath' in DPoP does not match the token hash\"; the same proof with a hex ath is accepted; a Bearer call is refused too")
        func athEncodingPinned() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, dpop: .required)
                let service = try await device.register()
                let userinfo = peer.issuer.appendingPathComponent("userinfo")
                let authorized = AuthorizedTransport(base: URLSessionTransport(defaultTimeout: 10), service: service,
                                                     policy: TokenPolicy(validatingURLs: [userinfo]))
                let refused = try await authorized.send(HTTPRequest(method: .get, url: userinfo))
                #expect(refused.status == 400)
                #expect(String(decoding: refused.body, as: UTF8.self).contains("'ath' in DPoP does not match the token hash"))
                #expect(await service.state.letter == "H", "a refused resource call leaves the session as it was")

                let token = try #require(await service.runner.tokens.snapshot()?.accessToken)
                let signer = DPoPProofSigner(key: try Self.key(device), crypto: SystemCrypto())
                let proof = try signer.proof(method: "GET", url: userinfo, accessToken: token, now: Date())
                let base64url = DPoPProofSigner.accessTokenHash(token, crypto: SystemCrypto())
                let claims = try #require(try JSONWebToken(compact: proof).claims["ath"]?.stringValue)
                #expect(claims == base64url, "RegState's ath is the RFC's base64url")
                let hex = SystemCrypto().sha256(Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
                let header = String(proof.split(separator: ".")[0])
                let hexClaims = #"{"jti":"\#(UUID().uuidString)","htm":"GET","htu":"\#(try DPoPProofSigner.htu(for: userinfo))","iat":\#(Int(Date().timeIntervalSince1970)),"ath":"\#(hex)"}"#
                var request = HTTPRequest(method: .get, url: userinfo)
                request.headers["Authorization"] = "DPoP \(token)"
                request.headers["DPoP"] = try signer.sign(header: Array(header.utf8), claims: Array(hexClaims.utf8))
                let accepted = try await URLSessionTransport(defaultTimeout: 10).send(request)
                #expect(accepted.status == 200, "\(String(decoding: accepted.body, as: UTF8.self).prefix(200))")

                var bearer = HTTPRequest(method: .get, url: userinfo)
                bearer.headers["Authorization"] = "Bearer \(token)"
                #expect(try await URLSessionTransport(defaultTimeout: 10).send(bearer).status == 400)
            }
        }

        /// RFC 9449 §5: for a public client the refresh token is bound to the key its proof showed. idpyoidc keeps
        /// only the latest key it saw (`grant.extra["dpop_jkt"]`) and checks no binding: a thief with the refresh
        /// token and a key of their own renews. RegState cannot close that at the provider; it is recorded here so
        /// nobody reads idpyoidc's DPoP as sender-constrained refresh.
        @Test("idpyoidc DPoP: a refresh token presented with another key's proof is accepted (no refresh-token binding, RFC 9449 §5): a provider weakness, recorded")
        func refreshNotBound() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, dpop: .required)
                _ = try await device.register()
                let refreshToken = try await device.storedRefreshToken()
                let thief = DPoPProofSigner(key: try DPoPKey.generate(crypto: SystemCrypto()), crypto: SystemCrypto())
                let tokenEndpoint = peer.issuer.appendingPathComponent("token")
                let stolen = try await URLSessionTransport(defaultTimeout: 10).send(.form(
                    url: tokenEndpoint,
                    parameters: [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", peer.clientID)],
                    headers: ["DPoP": try thief.proof(method: "POST", url: tokenEndpoint, now: Date())]))
                #expect(stolen.status == 200)
            }
        }
    }
}
