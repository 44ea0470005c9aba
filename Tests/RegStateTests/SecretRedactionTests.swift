import Foundation
import Testing
@testable import RegState
import RegStateOngoingAccess
import RegStateSimulator
import RegStateTesting

/// Every public value that can hold a token or a key is redacted in all three views a developer meets it in:
/// `description` (string interpolation, `print`), `debugDescription` (`debugPrint`, the debugger's `po`) and its
/// mirror (`dump`, the debugger's variable view) (issue 43, E).
@Suite("Secrets redacted in description, debugDescription and dump")
struct SecretRedactionTests {
    /// The three views of `value`.
    static func views(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped]
    }

    /// The ways raw key bytes would show: hex, base64, base64url and the field names that hold them (a mirror
    /// that shows `Data` prints its byte count, so "bytes" shows it was reached).
    static func keyTraces(_ bytes: Data) -> [String] {
        [bytes.map { String(format: "%02x", $0) }.joined(), bytes.base64EncodedString(), Base64URL.encode(bytes),
         "pkcs8DER", "pkcs1DER", "privateKey", "bytes"]
    }

    static func expectRedacted(_ value: Any, _ secrets: [String], _ what: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        for (view, text) in zip(["description", "debugDescription", "dump"], views(of: value)) {
            for secret in secrets where text.contains(secret) {
                Issue.record("\(what): \(view) shows \(secret): \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("Given a registered device, the credential validAccessToken() hands out shows no token, in any view")
    func accessCredentialFromTheService() async throws {
        let device = try SimulatedDevice()
        let service = device.launch()
        _ = await service.start()
        let url = try await service.beginSocialRegistration()
        _ = try await service.completeSocialRegistration(callback: try await device.simulator.authorize(url, as: "alice@example.com"))
        try await service.confirmRegistration()
        let credential = try await service.validAccessToken()
        #expect(credential.token.count > 8)
        Self.expectRedacted(credential, [credential.token], "AccessCredential")
        Self.expectRedacted([credential], [credential.token], "[AccessCredential]")
        Self.expectRedacted(Optional(credential) as Any, [credential.token], "AccessCredential?")
    }

    @Test("Every public value holding a token or a key: no secret in description, debugDescription or dump")
    func everyHolder() throws {
        let crypto = SystemCrypto()
        let p256 = try crypto.generateP256PrivateKey()
        let dpopKey = try DPoPKey(privateKey: p256, crypto: crypto)
        let rsa = try #require(CheckedInKeys.provider)
        let token = "tok-3f9a1c-SECRET"
        let refresh = "ref-7b2e4d-SECRET"
        let p256Traces = Self.keyTraces(p256.pkcs8DER)
        let rsaTraces = Self.keyTraces(rsa.pkcs1DER)

        Self.expectRedacted(p256, p256Traces, "P256PrivateKey")
        Self.expectRedacted(rsa, rsaTraces, "RSAPrivateKey")
        Self.expectRedacted(dpopKey, p256Traces, "DPoPKey")
        Self.expectRedacted(DPoPProofSigner(key: dpopKey, crypto: crypto), p256Traces, "DPoPProofSigner")
        Self.expectRedacted(AccessCredential(token: token, carrier: .accessToken), [token], "AccessCredential bearer")
        Self.expectRedacted(AccessCredential(token: token, scheme: .dpop(dpopKey), carrier: .accessToken),
                            [token] + p256Traces, "AccessCredential DPoP")

        let jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJlLVNFQ1JFVA"
        let webToken = try JSONWebToken(compact: jwt)
        Self.expectRedacted(webToken, [jwt, "c2lnbmF0dXJlLVNFQ1JFVA"], "JSONWebToken")
        let verified = VerifiedIDToken(token: webToken, profile: Profile(subject: "user-1", issuer: "https://idp.test"))
        Self.expectRedacted(verified, [jwt, "c2lnbmF0dXJlLVNFQ1JFVA"], "VerifiedIDToken")
        Self.expectRedacted(TokenResponse(accessToken: token, refreshToken: refresh, idToken: jwt),
                            [token, refresh, jwt], "TokenResponse")
        Self.expectRedacted(SecurityTokenGrant(securityToken: token, expiresIn: 60, registered: true), [token],
                            "SecurityTokenGrant")
        let api = try #require(URL(string: "https://api.test/v1?access_token=\(token)"))
        Self.expectRedacted(HTTPRequest(method: .post, url: api, headers: ["Authorization": "Bearer \(token)"],
                                        body: Data("refresh_token=\(refresh)".utf8)), [token, refresh], "HTTPRequest")
        Self.expectRedacted(HTTPResponse(status: 200, body: Data(#"{"access_token":"\#(token)"}"#.utf8)), [token],
                            "HTTPResponse")
        for input in [SecretInput.code(token), .idToken(jwt), .staleAccessToken(token),
                      .callback(try #require(URL(string: "app:/cb?code=\(token)")))] {
            Self.expectRedacted(input, [token, jwt], "SecretInput")
        }

        let oauth = OAuthToken(accessToken: token, accessTokenExpiresAt: Date(), refreshToken: refresh,
                               refreshTokenExpiresAt: Date(), tokenType: "Bearer")
        Self.expectRedacted(oauth, [token, refresh], "OAuthToken")
        let scope = OngoingAccessScope()
        Self.expectRedacted(OngoingAccessTokenStore.Record(token: oauth, scope: scope), [token, refresh],
                            "OngoingAccessTokenStore.Record")
        let session = OngoingAccessSession(key: "session-key-SECRET", scope: scope, expiresAt: Date())
        Self.expectRedacted(session, ["session-key-SECRET"], "OngoingAccessSession")

        let store = InMemorySecureStore()
        try store.set(Data(token.utf8), forKey: "access_token")
        Self.expectRedacted(store, [token], "InMemorySecureStore")
    }
}
