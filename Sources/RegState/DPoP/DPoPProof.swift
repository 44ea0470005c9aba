import Foundation

/// Makes DPoP proofs (RFC 9449 §4.2) with the installation's key: ES256, the public `jwk` only, `jti`, `htm`, `htu`,
/// `iat`, and `ath` and `nonce` when there are (docs/Internals-Machine.md).
package struct DPoPProofSigner: Sendable, RedactedDescription {
    package let key: DPoPKey
    package let crypto: any CryptoProvider
    /// The proof's header, base64url-encoded once per key.
    private let encodedHeader: [UInt8]
    /// The private key loaded once (`nil` when it cannot be: signing then reports the error).
    private let signingKey: (any SigningKey)?
    /// Test seam: makes every proof defective in one way; never set in production code.
    package var defect: (any DPoPProofTampering)?

    /// The key's thumbprint only, never the private key.
    package var description: String { "DPoPProofSigner(jkt: \(key.thumbprint))" }

    package init(key: DPoPKey, crypto: any CryptoProvider) {
        self.key = key
        self.crypto = crypto
        encodedHeader = Base64URL.encodeBytes(Array(Self.header(for: key).utf8))
        signingKey = try? crypto.signingKey(for: key.privateKey)
    }

    /// A proof for one request: `method` is `htm`, `url` gives `htu`, `accessToken` (on resource requests) is hashed
    /// into `ath`, `nonce` is the origin's latest `DPoP-Nonce`, `now` the `iat` (whole seconds).
    package func proof(
        method: String, url: URL, accessToken: String? = nil, nonce: String? = nil, now: Date
    ) throws(DPoPError) -> String {
        let claims = DPoPClaims(
            jti: try jti(), htm: method.uppercased(), htu: try Self.htu(for: url), iat: Self.seconds(now),
            ath: accessToken.map { Self.accessTokenHash($0, crypto: crypto) }, nonce: nonce)
        if let defect { return try defect.proof(of: claims, by: self) }
        return try sign(header: encodedHeader, claims: claims.jsonBytes())
    }

    package static func header(for key: DPoPKey) -> String {
        let jwk = key.jwk
        return #"{"alg":"ES256","typ":"dpop+jwt","jwk":{"crv":"P-256","kty":"EC","x":"\#(jwk.x ?? "")","y":"\#(jwk.y ?? "")"}}"#
    }

    /// `htu` for `url`: scheme, authority and path only (RFC 9449 §4.2; no query, no fragment, no user info).
    package static func htu(for url: URL) throws(DPoPError) -> String {
        if let plain = plainHTU(url.absoluteString) { return plain }
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

    /// The common case without `URLComponents` (slow on Linux): a lowercase `http`/`https` scheme, `//`, an
    /// authority without user info; the text up to the query or fragment. Anything else takes the general path.
    static func plainHTU(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        let schemeEnd: Int
        if bytes.starts(with: Array("https://".utf8)) { schemeEnd = 8 } else if bytes.starts(with: Array("http://".utf8)) {
            schemeEnd = 7
        } else { return nil }
        var index = schemeEnd
        while index < bytes.count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"),
              bytes[index] != UInt8(ascii: "#") {
            if bytes[index] == UInt8(ascii: "@") { return nil }
            index += 1
        }
        guard index > schemeEnd else { return nil }
        while index < bytes.count, bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") { index += 1 }
        return String(decoding: bytes[..<index], as: UTF8.self)
    }

    /// `ath`: base64url of the SHA-256 of the access token's ASCII bytes (RFC 9449 §4.2).
    package static func accessTokenHash(_ token: String, crypto: any CryptoProvider) -> String {
        Base64URL.encode(crypto.sha256(Data(token.utf8)))
    }

    /// The compact JWS of `claims` under `header`, built as bytes (no intermediate strings on the hot path).
    package func sign(header: [UInt8], claims: [UInt8]) throws(DPoPError) -> String {
        var input = header
        input.reserveCapacity(header.count + 1 + (claims.count * 4 + 2) / 3 + 1 + 86)
        input.append(UInt8(ascii: "."))
        input += Base64URL.encodeBytes(claims)
        let signature: Data
        do {
            guard let signingKey else { throw CryptoError.invalidKey("not a usable P-256 key") }
            signature = try signingKey.sign(message: Data(input))
        } catch {
            throw .cryptoFailed(reason: "the proof could not be signed")
        }
        input.append(UInt8(ascii: "."))
        input += Base64URL.encodeBytes(signature)
        return String(decoding: input, as: UTF8.self)
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

/// The claims of one proof (RFC 9449 §4.2).
package struct DPoPClaims: Sendable {
    package var jti: String
    package var htm: String
    package var htu: String
    package var iat: Int64
    package var ath: String?
    package var nonce: String?

    package func jsonBytes() -> [UInt8] {
        var out = JSONText()
        var first = true
        out.raw("{")
        for (name, value) in [("jti", jti), ("htm", htm), ("htu", htu)] {
            out.key(name, first: &first)
            out.string(value)
        }
        out.raw(",\"iat\":\(iat)")
        for case let (name, value?) in [("ath", ath), ("nonce", nonce)] {
            out.key(name, first: &first)
            out.string(value)
        }
        out.raw("}")
        return Array(out.data)
    }
}
