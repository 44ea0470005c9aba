import Foundation
import RegState

extension JSONWebToken {
    /// Signs `claims` and returns the compact JWS.
    ///
    /// The header is `extra` with `alg` set to `algorithm`, `kid` to `keyID` when given, and `typ` to `"JWT"` unless
    /// `extra` names another type. Members are serialized with sorted keys, so equal inputs give equal tokens for the
    /// deterministic RS256. The signed requests of ongoing access are made here too (PS512).
    package static func sign(
        header extra: [String: JSONValue] = [:],
        claims: [String: JSONValue],
        keyID: String?,
        privateKey: RSAPrivateKey,
        algorithm: SignatureAlgorithm,
        crypto: any RSASigningProvider
    ) throws(CryptoError) -> String {
        var header = extra
        header["alg"] = .string(algorithm.rawValue)
        if header["typ"] == nil { header["typ"] = "JWT" }
        if let keyID { header["kid"] = .string(keyID) }
        let headerSegment = Base64URL.encode(JSONValue.object(header).serialized())
        let payloadSegment = Base64URL.encode(JSONValue.object(claims).serialized())
        let signingInput = "\(headerSegment).\(payloadSegment)"
        let signature = try crypto.sign(message: Data(signingInput.utf8), privateKey: privateKey, algorithm: algorithm)
        return "\(signingInput).\(Base64URL.encode(signature))"
    }
}
