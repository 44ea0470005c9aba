import Foundation
import RegState

/// Why a JWS from a provider was not believed. Messages name the check that failed, never the token's content.
public enum JWSRejection: Error, Sendable, Equatable {
    /// Not three base64url segments with JSON-object header and payload (duplicate members included); the detail
    /// says which part.
    case malformed(String)
    /// The header lists critical extensions (`crit`), none of which are understood (RFC 7515 §4.1.11).
    case criticalHeader
    /// The `alg` is not on the verifier's fixed allow-list (`none` and HMAC never are); carries the `alg` as written.
    case unsupportedAlgorithm(String)
    /// The header names no `kid`: every answer must say which key signed it.
    case missingKeyID
    /// No pinned key (nor one of an allow-listed `jku`) has the header's `kid`.
    case unknownKeyID(String)
    /// The header's `jku` is not on the allow-list; it was not fetched. Carries the URL's host.
    case foreignKeySetURL(String)
    /// An allow-listed `jku` could not be fetched or read; the detail says why.
    case keySetUnavailable(String)
    /// The key the `kid` names is published for another algorithm than the header's (RFC 7517 §4.4).
    case keyAlgorithmMismatch
    /// The key is shorter than 2048 bits (RFC 7518 §3.3); carries its length.
    case weakKey(bits: Int)
    /// The signature is not exactly as long as the key's modulus (RFC 8017 §8.1.2, §8.2.2).
    case signatureLengthMismatch(expected: Int, found: Int)
    /// The signature does not verify under the key: signed by another key, or the header or payload was changed.
    case invalidSignature
}

extension JWSRejection: LocalizedError {
    /// A sentence for people; never contains the token.
    public var errorDescription: String? {
        switch self {
        case .malformed(let detail): "The signed answer is malformed (\(detail))."
        case .criticalHeader: "The signed answer marks header extensions as critical, which are not supported."
        case .unsupportedAlgorithm(let algorithm): "The signed answer uses \"\(algorithm.prefix(32))\", which is not allowed."
        case .missingKeyID: "The signed answer does not name its key (no kid)."
        case .unknownKeyID(let keyID): "The signed answer names an unknown key \"\(keyID.prefix(64))\"."
        case .foreignKeySetURL(let host): "The signed answer points at a key set on \(host.prefix(100)), which is not allowed."
        case .keySetUnavailable(let detail): "The provider's key set could not be read (\(detail))."
        case .keyAlgorithmMismatch: "The signed answer's key is published for another algorithm."
        case .weakKey(let bits): "The signed answer's key has \(bits) bits; at least 2048 are required."
        case .signatureLengthMismatch(let expected, let found):
            "The signed answer's signature has \(found) bytes, not the key's \(expected)."
        case .invalidSignature: "The signed answer's signature is not valid."
        }
    }
}
