import Foundation

/// Why an ID token was rejected (OpenID Connect Core 1.0 §3.1.3.7).
///
/// Messages name the check that failed, never the token. Only ``unknownKeyID(_:)`` is worth a retry: the issuer may
/// have rotated its keys, so refetch the JWKS once (see ``suggestsKeyRefresh``); every other case is final.
public enum IDTokenError: Error, Sendable, Equatable {
    /// The token is not a well-formed JWT, or a required claim (`sub`, `exp`, `iat`) is missing or mistyped.
    case malformed(String)
    /// The `alg` is not one the validator accepts (`none` and HMAC never are).
    case unsupportedAlgorithm(String)
    /// The JWKS has no RSA signing key with the header's `kid` (`nil` when the header has none and the set is
    /// ambiguous).
    case unknownKeyID(String?)
    /// The signature does not verify under the issuer's key, or that key cannot be used.
    case invalidSignature
    /// `iss` is not exactly the expected issuer.
    case issuerMismatch(expected: String, found: String?)
    /// `aud` does not contain this client's ID.
    case audienceMismatch
    /// `azp` is missing while there are several audiences, or is not this client's ID.
    case authorizedPartyMismatch
    /// `exp` (plus leeway) is not in the future.
    case expired(at: Date)
    /// `iat` is later than now plus leeway.
    case issuedInFuture
    /// `iat` is further in the past than the allowed maximum age.
    case tooOld
    /// A nonce was expected and the token's `nonce` is missing or different.
    case nonceMismatch

    /// Whether refetching the issuer's JWKS and validating once more could succeed.
    public var suggestsKeyRefresh: Bool {
        if case .unknownKeyID = self { return true }
        return false
    }
}

extension IDTokenError: LocalizedError {
    /// A sentence for people; never contains the token.
    public var errorDescription: String? {
        switch self {
        case .malformed(let reason): "The ID token is malformed (\(reason))."
        case .unsupportedAlgorithm(let algorithm):
            "The ID token is signed with \"\(algorithm.prefix(32))\", which is not accepted."
        case .unknownKeyID(let keyID):
            if let keyID {
                "The issuer's key set has no signing key \"\(keyID.prefix(64))\"."
            } else {
                "The ID token names no key and the issuer's key set has more than one."
            }
        case .invalidSignature: "The ID token's signature is not valid."
        case .issuerMismatch(let expected, let found):
            "The ID token was issued by \(found.map { "\"\($0.prefix(200))\"" } ?? "nobody"), not \"\(expected)\"."
        case .audienceMismatch: "The ID token was not issued for this app."
        case .authorizedPartyMismatch: "The ID token's authorized party is not this app."
        case .expired(let date): "The ID token expired at \(date.formatted(.iso8601))."
        case .issuedInFuture: "The ID token's issue time is in the future."
        case .tooOld: "The ID token was issued too long ago."
        case .nonceMismatch: "The ID token does not answer this sign-in request (nonce mismatch)."
        }
    }
}
