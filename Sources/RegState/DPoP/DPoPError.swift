import Foundation

/// Why a DPoP operation (RFC 9449) failed. No case ever carries a token, a proof or key material.
public enum DPoPError: Error, Sendable, Equatable {
    /// The stored DPoP key record exists but cannot be used (torn, not JSON, a member missing); `reason` says what.
    /// The session it binds cannot be renewed: a new registration makes a new key.
    case keyRecordUnreadable(reason: String)
    /// The stored DPoP key is not a P-256 key (`curve` is what the record says).
    case keyRecordWrongCurve(curve: String)
    /// The crypto provider failed to make, read or use the key; `reason` says which step.
    case cryptoFailed(reason: String)
    /// The secure store failed while reading, writing or removing the key.
    case storeFailed(reason: String)
    /// The request URL cannot be a proof's `htu` (no scheme or host, not http or https).
    case invalidTargetURL
    /// A JWK whose RFC 7638 thumbprint cannot be computed (unsupported `kty`, a required member missing).
    case thumbprintUnavailable(reason: String)
    /// A `DPoP-Nonce` the server sent that RegState refuses to echo (over `DPoPNonceCache.maximumNonceLength`
    /// bytes, or characters outside RFC 9449 §8.1's `NQCHAR`).
    case invalidNonce(reason: String)
    /// DPoP is required (``DPoPMode/required``) but the provider's discovery does not list `ES256` in
    /// `dpop_signing_alg_values_supported`.
    case notOffered
    /// DPoP is required but the provider answered a proof with a `Bearer` token; nothing was stored.
    case unboundTokenIssued
    /// The provider issued a `DPoP` token to a request that carried no proof (RegState could not use it).
    case boundTokenWithoutProof
}

extension DPoPError: LocalizedError {
    /// A sentence for people; never contains key or token material.
    public var errorDescription: String? {
        switch self {
        case .keyRecordUnreadable(let reason):
            "The stored DPoP key cannot be read (\(reason)); the session it binds needs a new registration."
        case .keyRecordWrongCurve(let curve):
            "The stored DPoP key is on curve '\(curve)', not P-256; the session it binds needs a new registration."
        case .cryptoFailed(let reason): "DPoP key operation failed: \(reason)."
        case .storeFailed(let reason): "The DPoP key could not be stored or read: \(reason)."
        case .invalidTargetURL: "The request URL cannot be bound by a DPoP proof (needs an http or https URL)."
        case .thumbprintUnavailable(let reason): "No RFC 7638 thumbprint for this key: \(reason)."
        case .invalidNonce(let reason): "The server's DPoP nonce was refused: \(reason)."
        case .notOffered:
            "DPoP is required, but the sign-in service does not offer ES256 proofs (dpop_signing_alg_values_supported)."
        case .unboundTokenIssued: "DPoP is required, but the sign-in service issued a Bearer token; nothing was stored."
        case .boundTokenWithoutProof: "The sign-in service issued a DPoP-bound token to a request without a proof."
        }
    }
}
