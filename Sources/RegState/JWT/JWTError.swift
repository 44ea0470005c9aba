import Foundation

/// Why a compact JWS could not be parsed, signed or verified, or a JWK could not be used. Messages name the part that
/// is wrong, never its content: a token is a bearer credential.
public enum JWTError: Error, Sendable, Equatable {
    /// The three parts of a compact JWS, for errors that point at one of them.
    public enum Part: String, Sendable, Equatable {
        /// The protected header.
        case header
        /// The payload (the claims of a JWT).
        case payload
        /// The signature.
        case signature
    }

    /// The text is not three dot-separated segments; carries how many there were.
    case wrongSegmentCount(Int)
    /// The compact token is longer than `JSONWebToken.maximumCompactLength`; carries that limit in bytes.
    case tooLarge(limit: Int)
    /// A segment is not strict base64url (RFC 7515 §2: no padding, URL-safe alphabet only, no stray bits).
    case invalidBase64URL(Part)
    /// The header or payload is not strict JSON (duplicate member, bad number, too deep, …); says which and why.
    case invalidJSON(Part, JSONParseError)
    /// A header member RegState reads has the wrong type; carries the member's name.
    case invalidHeaderMember(String)
    /// The header or payload is not a JSON object.
    case notJSONObject(Part)
    /// The header has no string `alg`.
    case missingAlgorithm
    /// The header lists critical extensions (`crit`), none of which RegState understands (RFC 7515 §4.1.11).
    case unsupportedCriticalHeader
    /// The `alg` is not one RegState verifies or signs (only RS256, PS256, PS512 and ES256; never `none` or HMAC).
    case unsupportedAlgorithm(String)
    /// A JWK cannot be turned into an RSA public key; the detail says why.
    case invalidKey(String)
}

extension JWTError: LocalizedError {
    /// A sentence for people; never contains the token.
    public var errorDescription: String? {
        switch self {
        case .wrongSegmentCount(let count):
            "A compact JWS has three dot-separated segments, this one has \(count)."
        case .tooLarge(let limit): "The JWS is longer than \(limit) bytes."
        case .invalidBase64URL(let part): "The JWS \(part.rawValue) is not base64url."
        case .invalidJSON(let part, let error):
            "The JWS \(part.rawValue) is not valid JSON: \(error.errorDescription ?? "unreadable")"
        case .invalidHeaderMember(let name): "The JWS header member \"\(name.prefix(32))\" has the wrong type."
        case .notJSONObject(let part): "The JWS \(part.rawValue) is not a JSON object."
        case .missingAlgorithm: "The JWS header has no \"alg\"."
        case .unsupportedCriticalHeader: "The JWS header marks extensions as critical, which are not supported."
        case .unsupportedAlgorithm(let algorithm):
            "The JWS algorithm \"\(algorithm.prefix(32))\" is not supported (only RS256, PS256, PS512 and ES256)."
        case .invalidKey(let detail): "The JSON Web Key cannot be used (\(detail))."
        }
    }
}
