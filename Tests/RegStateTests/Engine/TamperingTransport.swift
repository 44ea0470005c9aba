import Foundation
@testable import RegState

/// The simulator's transport with the provider's signing key swapped for a test key, so a test can hand the client
/// ID tokens with chosen defects (wrong audience, bad signature, `alg: none`, ...). Everything else is the real
/// simulator: discovery, PKCE, code exchange.
struct TamperingTransport: HTTPTransport {
    let base: any HTTPTransport
    let key: RSAPrivateKey
    let crypto = SystemCrypto()
    /// Rewrites the claims of each issued ID token; returns `nil` to leave the token as a test-key RS256 JWT.
    let mutate: @Sendable (inout [String: JSONValue], inout [String: JSONValue]) -> Void
    /// Signs with a key that the JWKS does not publish (same kid), to make the signature invalid.
    var signWithOtherKey: RSAPrivateKey?
    /// Replaces the token with an unsigned `alg: none` token.
    var unsigned = false

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        if request.url.path.hasSuffix("jwks.json") {
            let jwk = JSONWebKey(publicKey: try crypto.publicKey(of: key), keyID: "test-key")
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                body: try JSONEncoder().encode(JSONWebKeySet(keys: [jwk])))
        }
        guard request.url.path.hasSuffix("/oauth/token"), response.status == 200,
              var body = response.jsonBody?.objectValue, let idToken = body["id_token"]?.stringValue else { return response }
        var claims = try JSONWebToken(compact: idToken).claims
        var header: [String: JSONValue] = [:]
        mutate(&claims, &header)
        let replaced: String
        if unsigned {
            let head: JSONValue = ["alg": "none", "typ": "JWT"]
            replaced = Base64URL.encode(head.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized()) + "."
        } else {
            replaced = try JSONWebToken.sign(header: header, claims: claims, keyID: "test-key",
                                             privateKey: signWithOtherKey ?? key, algorithm: .rs256, crypto: crypto)
        }
        body["id_token"] = .string(replaced)
        var tampered = response
        tampered.body = JSONValue.object(body).serialized()
        return tampered
    }
}

/// Sends through `tampered` until a test turns `tamper` off, then through `plain`: one service can meet a bad
/// provider answer and then an honest one, as an app whose user tries again would.
struct SwitchableTransport: HTTPTransport {
    let tampered: any HTTPTransport
    let plain: any HTTPTransport
    let tamper = LockedValue(true)

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await (tamper.withLock { $0 } ? tampered : plain).send(request)
    }
}
