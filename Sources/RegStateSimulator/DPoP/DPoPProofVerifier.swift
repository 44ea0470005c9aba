import Foundation
import RegState

/// Checks a DPoP proof the way an authorization or resource server must (RFC 9449 §4.3), for the simulator.
///
/// Every check is its own ``DPoPProofRefusal``, so a test can show the one it provoked.
public final class DPoPProofVerifier: Sendable {
    /// How far `iat` may lie from the server's clock, in seconds (past or future).
    public let issueTimeWindow: TimeInterval
    private let crypto: any CryptoProvider
    /// `jti` values seen, with the time each stops mattering (after `iat` leaves the window).
    private let seen = LockedValue<[String: Date]>([:])

    /// A verifier accepting `iat` within `issueTimeWindow` seconds of now.
    public init(crypto: any CryptoProvider, issueTimeWindow: TimeInterval = 60) {
        self.crypto = crypto
        self.issueTimeWindow = issueTimeWindow
    }

    /// The proof's key thumbprint when `proof` is valid for this request.
    ///
    /// - Parameters:
    ///   - proof: the `DPoP` header value.
    ///   - method: the request's method.
    ///   - url: the request's URL (compared without query and fragment).
    ///   - accessToken: the access token the request presents, if any (`ath` required then).
    ///   - expectedNonce: the nonce the server requires, if any.
    ///   - now: the server's clock.
    /// - Throws: the first ``DPoPProofRefusal`` that applies.
    public func verify(
        _ proof: String, method: String, url: URL, accessToken: String?, expectedNonce: String?, now: Date
    ) throws(DPoPProofRefusal) -> String {
        guard let token = try? JSONWebToken(compact: proof) else { throw .malformed }
        guard token.header["typ"]?.stringValue == "dpop+jwt" else { throw .wrongType }
        guard token.algorithm == SignatureAlgorithm.es256.rawValue else { throw .algorithmNotAllowed }
        guard let jwkObject = token.header["jwk"]?.objectValue else { throw .missingKey }
        guard jwkObject["d"] == nil, jwkObject["p"] == nil, jwkObject["q"] == nil else { throw .privateKeyMember }
        guard jwkObject["kty"]?.stringValue == "EC", jwkObject["crv"]?.stringValue == "P-256",
              let x = jwkObject["x"]?.stringValue.flatMap(Base64URL.decode),
              let y = jwkObject["y"]?.stringValue.flatMap(Base64URL.decode),
              let key = P256PublicKey(x: x, y: y)
        else { throw .missingKey }
        guard (try? crypto.verify(signature: token.signature, message: token.signingInput, publicKey: key)) == true
        else { throw .badSignature }
        guard token.claims["htm"]?.stringValue == method.uppercased() else { throw .wrongMethod }
        guard let htu = token.claims["htu"]?.stringValue, let expected = try? DPoPProofSigner.htu(for: url),
              let given = URL(string: htu).flatMap({ try? DPoPProofSigner.htu(for: $0) }), given == expected
        else { throw .wrongURL }
        guard let iat = token.claims["iat"]?.numberValue, abs(iat - now.timeIntervalSince1970) <= issueTimeWindow
        else { throw .issueTimeOutsideWindow }
        if let expectedNonce, token.claims["nonce"]?.stringValue != expectedNonce { throw .nonceRequired }
        if let accessToken {
            guard token.claims["ath"]?.stringValue == DPoPProofSigner.accessTokenHash(accessToken, crypto: crypto)
            else { throw .wrongAccessTokenHash }
        }
        guard let jti = token.claims["jti"]?.stringValue, !jti.isEmpty else { throw .replayed }
        let fresh = seen.withLock { seen -> Bool in
            seen = seen.filter { $0.value > now }
            guard seen[jti] == nil else { return false }
            seen[jti] = now.addingTimeInterval(2 * issueTimeWindow)
            return true
        }
        guard fresh else { throw .replayed }
        let jwk = JSONWebKey(keyType: "EC", curve: "P-256", x: Base64URL.encode(x), y: Base64URL.encode(y))
        guard let thumbprint = try? jwk.thumbprint(crypto: crypto) else { throw .missingKey }
        return thumbprint
    }
}

/// Why a DPoP proof was refused (RFC 9449 §4.3), one case per check.
public enum DPoPProofRefusal: Error, Sendable, Equatable, CaseIterable {
    /// Not a compact JWS.
    case malformed
    /// `typ` is not `dpop+jwt`.
    case wrongType
    /// `alg` is not an allowed asymmetric algorithm (ES256 here).
    case algorithmNotAllowed
    /// No usable public `jwk` in the header.
    case missingKey
    /// The `jwk` carries private key members.
    case privateKeyMember
    /// The signature does not verify with the embedded key.
    case badSignature
    /// `htm` is not the request's method.
    case wrongMethod
    /// `htu` is not the request's URL.
    case wrongURL
    /// `iat` is outside the accepted window.
    case issueTimeOutsideWindow
    /// The nonce the server requires is missing or stale.
    case nonceRequired
    /// `ath` does not match the presented access token.
    case wrongAccessTokenHash
    /// `jti` was seen before (or is missing).
    case replayed
}
