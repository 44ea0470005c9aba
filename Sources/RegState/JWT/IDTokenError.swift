import Foundation

/// Why an ID token was rejected (OpenID Connect Core 1.0 §3.1.3.7); messages name the failed check, never the token.
/// Only ``unknownKeyID(_:)`` is worth a retry (the issuer may have rotated its keys: refetch the JWKS once, see
/// ``suggestsKeyRefresh``); every other case is final.
public enum IDTokenError: Error, Sendable, Equatable {
    /// A required claim (`sub`, `exp`, `iat`) is missing or mistyped; the text names the claim.
    case malformed(String)
    /// The token is not a well-formed compact JWS (too large, bad base64url, JSON with duplicate members, …).
    case invalidJWT(JWTError)
    /// The `alg` is not one the validator accepts (`none` and HMAC never are).
    case unsupportedAlgorithm(String)
    /// The JWKS has no RSA signing key with the header's `kid` (`nil` when the header has none and the set is
    /// ambiguous).
    case unknownKeyID(String?)
    /// The JWKS has keys with the header's `kid`, but none whose type, curve or own `alg` fits the header's `alg`
    /// (RFC 8725 §3.1); carries the header's algorithm.
    case keyDoesNotFitAlgorithm(String)
    /// The signature does not verify under the issuer's key, or that key cannot be used.
    case invalidSignature
    /// `iss` is not exactly the expected issuer.
    case issuerMismatch(expected: String, found: String?)
    /// `aud` does not contain this client's ID (or is not a string or a non-empty array of strings).
    case audienceMismatch
    /// `aud` lists an audience that is neither this client nor one the validator trusts (OIDC Core §3.1.3.7 step 3).
    case untrustedAudience
    /// `azp` is missing while there are several audiences, or is not this client's ID.
    case authorizedPartyMismatch
    /// `exp` (plus leeway) is not in the future.
    case expired(at: Date)
    /// `iat` is later than now plus leeway.
    case issuedInFuture
    /// `nbf` is later than now plus leeway.
    case notYetValid
    /// `exp`, `iat` or `nbf` is not a finite number of seconds between 1970 and 9999; carries the claim's name.
    case invalidTimeClaim(String)
    /// `sub` is empty, longer than 255 characters, or not printable ASCII (OIDC Core §2).
    case invalidSubject
    /// `iat` is further in the past than the allowed maximum age.
    case tooOld
    /// A nonce was expected and the token's `nonce` is missing or different.
    case nonceMismatch
    /// A refreshed ID token names another subject or issuer than the original (OIDC Core §12.2).
    case refreshedIdentityMismatch
    /// `max_age` was requested and the ID token carries no numeric `auth_time` (OIDC Core §3.1.3.7 item 12, §2): the
    /// provider ignored the request.
    case authTimeMissing
    /// `max_age` was requested and the user last signed in (`auth_time`, here) longer ago than it allows, plus the
    /// leeway (OIDC Core §3.1.3.7 item 12): the provider did not ask the user again.
    case authenticationTooOld(authenticatedAt: Date)
    /// The app requires one of the requested `acr_values` and the ID token's `acr` (here; `nil` when absent) is none
    /// of them (OIDC Core §3.1.3.7 item 13).
    case acrNotAccepted(String?)
    /// The discovery document lists `none` among `id_token_signing_alg_values_supported`: a provider that may send
    /// unsigned ID tokens is refused outright.
    case unsignedTokensAdvertised

    /// Whether refetching the issuer's JWKS and validating once more could succeed.
    public var suggestsKeyRefresh: Bool {
        if case .unknownKeyID = self { return true }
        return false
    }

    /// The failed check's name (the case's), for the journal, never a value: written out, because a name read by
    /// reflection is lost in an app built without reflection metadata.
    var checkName: String {
        switch self {
        case .malformed: "malformed"
        case .invalidJWT: "invalidJWT"
        case .unsupportedAlgorithm: "unsupportedAlgorithm"
        case .unknownKeyID: "unknownKeyID"
        case .keyDoesNotFitAlgorithm: "keyDoesNotFitAlgorithm"
        case .invalidSignature: "invalidSignature"
        case .issuerMismatch: "issuerMismatch"
        case .audienceMismatch: "audienceMismatch"
        case .untrustedAudience: "untrustedAudience"
        case .authorizedPartyMismatch: "authorizedPartyMismatch"
        case .expired: "expired"
        case .issuedInFuture: "issuedInFuture"
        case .notYetValid: "notYetValid"
        case .invalidTimeClaim: "invalidTimeClaim"
        case .invalidSubject: "invalidSubject"
        case .tooOld: "tooOld"
        case .nonceMismatch: "nonceMismatch"
        case .refreshedIdentityMismatch: "refreshedIdentityMismatch"
        case .authTimeMissing: "authTimeMissing"
        case .authenticationTooOld: "authenticationTooOld"
        case .acrNotAccepted: "acrNotAccepted"
        case .unsignedTokensAdvertised: "unsignedTokensAdvertised"
        }
    }

    /// Whether only the clock refused the token (`exp`, `iat` or `nbf` against the time it was checked at), so that
    /// a better estimate of the provider's clock could accept it.
    var isTimeClaimFailure: Bool {
        switch self {
        case .expired, .issuedInFuture, .notYetValid, .tooOld, .authenticationTooOld: true
        default: false
        }
    }
}

extension IDTokenError: LocalizedError {
    /// A sentence for people; never contains the token.
    public var errorDescription: String? {
        switch self {
        case .malformed(let reason): "The ID token is malformed (\(reason))."
        case .invalidJWT(let error): "The ID token is malformed: \(error.errorDescription ?? "not a JWT")"
        case .keyDoesNotFitAlgorithm(let algorithm):
            "The issuer's key for this ID token does not fit its algorithm \"\(algorithm.prefix(32))\"."
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
        case .untrustedAudience: "The ID token is also issued for an audience this app does not trust."
        case .authorizedPartyMismatch: "The ID token's authorized party is not this app."
        case .expired(let date): "The ID token expired at \(RecordedTime.text(date))."
        case .issuedInFuture: "The ID token's issue time is in the future."
        case .notYetValid: "The ID token is not valid yet (nbf)."
        case .invalidTimeClaim(let name): "The ID token's \"\(name.prefix(8))\" is not a sane time."
        case .invalidSubject: "The ID token's subject is empty, too long or not ASCII."
        case .tooOld: "The ID token was issued too long ago."
        case .nonceMismatch: "The ID token does not answer this sign-in request (nonce mismatch)."
        case .refreshedIdentityMismatch: "The renewed ID token is for another user or issuer than the original."
        case .authTimeMissing: "The ID token does not say when the user signed in (no auth_time), though max_age was asked for."
        case .authenticationTooOld(let date):
            "The user last signed in at \(RecordedTime.text(date)), longer ago than the sign-in asked for (max_age)."
        case .acrNotAccepted(let acr):
            "The sign-in's authentication class \(acr.map { "\"\($0.prefix(64))\"" } ?? "(none)") is not one that was asked for."
        case .unsignedTokensAdvertised: "The provider says it may send unsigned ID tokens (alg none), which is refused."
        }
    }
}
