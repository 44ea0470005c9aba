import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator

/// Runs async library code to completion from libFuzzer's synchronous callback. Fuzz harness only: the library itself
/// never blocks a thread on async work.
func blocking(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await work()
        done.signal()
    }
    done.wait()
}

/// A transport that answers every request with the same canned response.
struct CannedTransport: HTTPTransport {
    let respond: @Sendable (HTTPRequest) -> HTTPResponse

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse { respond(request) }
}

/// What every target shares: one signing key (RSA key generation is slow), a fixed clock and the issuer.
enum FuzzFixture {
    static let crypto = SystemCrypto()
    static let issuer = "https://idp.fuzz.test"
    static let clientID = "fuzz-client"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let keyID = "fuzz-key"
    static let privateKey: RSAPrivateKey? = try? crypto.generateRSAPrivateKey(bits: 2048)
    static let keySet: JSONWebKeySet = {
        guard let privateKey, let publicKey = try? crypto.publicKey(of: privateKey) else { return JSONWebKeySet(keys: []) }
        return JSONWebKeySet(keys: [JSONWebKey(publicKey: publicKey, keyID: keyID)])
    }()

    static var oidc: OIDCConfiguration {
        // Both literals are valid URLs.
        OIDCConfiguration(issuer: URL(string: issuer) ?? URL(fileURLWithPath: "/"), clientID: clientID,
                          redirectURI: URL(string: "com.example.app:/callback") ?? URL(fileURLWithPath: "/"))
    }

    /// A discovery document for ``issuer`` naming every endpoint on its host.
    static var discovery: Data {
        Data("""
        {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/authorize","token_endpoint":"\(issuer)/token",
         "userinfo_endpoint":"\(issuer)/userinfo","jwks_uri":"\(issuer)/jwks","revocation_endpoint":"\(issuer)/revoke"}
        """.utf8)
    }

    /// The text of `data`, replacing invalid UTF-8 (the parsers take strings).
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}
