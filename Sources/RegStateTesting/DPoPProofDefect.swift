import Foundation
import RegState

/// Test seam: one way a proof can be wrong, one per check of RFC 9449 §4.3, so tests can make the library send it
/// and watch a verifier (the simulator, a real provider) refuse it.
package enum DPoPProofDefect: DPoPProofTampering, Equatable {
    /// `typ` is `JWT` instead of `dpop+jwt`.
    case wrongType
    /// `alg` is the symmetric `HS256`.
    case symmetricAlgorithm
    /// The signature is by another key than the embedded `jwk`.
    case signedByAnotherKey
    /// The `jwk` header carries a private member (`d`).
    case privateKeyMember
    /// `htm` is not the request's method.
    case wrongMethod
    /// `htu` is not the request's URL.
    case wrongURL
    /// `iat` is ten minutes old.
    case staleIssueTime
    /// `jti` is always the same value (a replay from the second proof on).
    case fixedJTI
    /// The server's nonce is left out.
    case noNonce
    /// `ath` is the hash of another token.
    case wrongAccessTokenHash

    /// The proof `original` signs `claims` into, with this defect.
    package func proof(of claims: DPoPClaims, by original: DPoPProofSigner) throws(DPoPError) -> String {
        var claims = claims
        var header = DPoPProofSigner.header(for: original.key)
        var signer = original
        signer.defect = nil
        let crypto = original.crypto
        switch self {
        case .wrongType: header = header.replacingOccurrences(of: "dpop+jwt", with: "JWT")
        case .symmetricAlgorithm: header = header.replacingOccurrences(of: "ES256", with: "HS256")
        case .signedByAnotherKey:
            signer = DPoPProofSigner(key: try DPoPKey.generate(crypto: crypto), crypto: crypto)
        case .privateKeyMember:
            header = header.replacingOccurrences(of: #""kty":"EC","#,
                                                 with: #""d":"\#(original.key.jwk.x ?? "")","kty":"EC","#)
        case .wrongMethod: claims.htm = claims.htm == "GET" ? "POST" : "GET"
        case .wrongURL: claims.htu += "-elsewhere"
        case .staleIssueTime: claims.iat -= 600
        case .fixedJTI: claims.jti = "fixed-jti-for-replay"
        case .noNonce: claims.nonce = nil
        case .wrongAccessTokenHash: claims.ath = DPoPProofSigner.accessTokenHash("another-token", crypto: crypto)
        }
        return try signer.sign(header: Base64URL.encodeBytes(Array(header.utf8)), claims: claims.jsonBytes())
    }
}
