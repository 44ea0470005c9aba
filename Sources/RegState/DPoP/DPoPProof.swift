import Foundation

/// Makes DPoP proofs (RFC 9449 §4.2) with the installation's key: header `typ: dpop+jwt`, `alg: ES256` and the
/// public `jwk` only; claims `jti` (16 random bytes), `htm`, `htu` (without query and fragment), `iat`, `ath` (the
/// SHA-256 of the access token, on resource requests) and `nonce` (when the server gave one). Signatures are JOSE's
/// fixed 64-byte `r || s`.
public struct DPoPProofSigner: Sendable {
    /// The key that signs.
    public let key: DPoPKey
    let crypto: any CryptoProvider
    /// The proof's header, serialised and base64url-encoded once per key (it never changes).
    private let encodedHeader: String
    /// The private key loaded once into the crypto provider's ready form (`nil` when it cannot be: signing then
    /// reports the error), so a proof costs one signature, not a key import plus a signature.
    private let signingKey: (any SigningKey)?
    /// Test seam: makes every proof defective in one way, so tests can show a verifier refusing it. Never set in
    /// production code; the library's own proofs are always well formed.
    package var defect: DPoPProofDefect?

    /// A signer for `key`.
    public init(key: DPoPKey, crypto: any CryptoProvider) {
        self.key = key
        self.crypto = crypto
        let jwk = key.jwk
        let header = #"{"alg":"ES256","typ":"dpop+jwt","jwk":{"crv":"P-256","kty":"EC","x":"\#(jwk.x ?? "")","y":"\#(jwk.y ?? "")"}}"#
        encodedHeader = Base64URL.encode(Data(header.utf8))
        signingKey = try? crypto.signingKey(for: key.privateKey)
    }

    /// A proof for one request.
    ///
    /// - Parameters:
    ///   - method: the HTTP method (`htm`), e.g. `POST`.
    ///   - url: the request URL; its query and fragment are not part of `htu`.
    ///   - accessToken: the access token the request carries (resource requests), hashed into `ath`.
    ///   - nonce: the server's latest `DPoP-Nonce` for this origin, if any.
    ///   - now: the issue time (`iat`, whole seconds).
    /// - Throws: ``DPoPError/invalidTargetURL`` or ``DPoPError/cryptoFailed(reason:)``.
    public func proof(
        method: String, url: URL, accessToken: String? = nil, nonce: String? = nil, now: Date
    ) throws(DPoPError) -> String {
        let claims = DPoPClaims(
            jti: try jti(), htm: method.uppercased(), htu: try Self.htu(for: url), iat: Self.seconds(now),
            ath: accessToken.map { Self.accessTokenHash($0, crypto: crypto) }, nonce: nonce)
        if let defect { return try defective(claims, defect) }
        return try sign(header: encodedHeader, claims: claims.json())
    }

    /// `htu` for `url`: scheme, authority and path only (RFC 9449 §4.2; no query, no fragment, no user info).
    public static func htu(for url: URL) throws(DPoPError) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = components.host, !host.isEmpty
        else { throw .invalidTargetURL }
        components.scheme = scheme
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        guard let text = components.string else { throw .invalidTargetURL }
        return text
    }

    /// `ath`: base64url of the SHA-256 of the access token's ASCII bytes (RFC 9449 §4.2).
    public static func accessTokenHash(_ token: String, crypto: any CryptoProvider) -> String {
        Base64URL.encode(crypto.sha256(Data(token.utf8)))
    }

    func sign(header: String, claims: String) throws(DPoPError) -> String {
        let signingInput = header + "." + Base64URL.encode(Data(claims.utf8))
        let signature: Data
        do {
            guard let signingKey else { throw CryptoError.invalidKey("not a usable P-256 key") }
            signature = try signingKey.sign(message: Data(signingInput.utf8))
        } catch {
            throw .cryptoFailed(reason: "the proof could not be signed")
        }
        return signingInput + "." + Base64URL.encode(signature)
    }

    private func jti() throws(DPoPError) -> String {
        do {
            return Base64URL.encode(try crypto.randomBytes(count: 16))
        } catch {
            throw .cryptoFailed(reason: "no random bytes for jti")
        }
    }

    static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        return value.isFinite && abs(value) < 1e15 ? Int64(value) : 0
    }
}

/// The claims of one proof, serialised by hand so the bytes are exactly what RFC 9449 describes.
struct DPoPClaims: Sendable {
    var jti: String
    var htm: String
    var htu: String
    var iat: Int64
    var ath: String?
    var nonce: String?

    func json() -> String {
        var text = "{\"jti\":\(JSONWebKey.quoted(jti)),\"htm\":\(JSONWebKey.quoted(htm)),"
            + "\"htu\":\(JSONWebKey.quoted(htu)),\"iat\":\(iat)"
        if let ath { text += ",\"ath\":\(JSONWebKey.quoted(ath))" }
        if let nonce { text += ",\"nonce\":\(JSONWebKey.quoted(nonce))" }
        return text + "}"
    }
}
