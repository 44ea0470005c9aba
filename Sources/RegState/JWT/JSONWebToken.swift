import Foundation

/// A parsed JWS in compact serialization (RFC 7515 §7.1) whose payload is a JWT claims set (RFC 7519).
///
/// Parsing checks structure only: three base64url segments, a JSON-object header with an `alg`, a JSON-object
/// payload. Nothing here is trusted until ``verifySignature(with:crypto:)`` (or ``IDTokenValidator``) says so.
/// The token is a bearer credential, so its description and reflection show only the algorithm and key ID.
public struct JSONWebToken: Sendable, Equatable {
    /// The protected header members.
    public let header: [String: JSONValue]
    /// The claims (the decoded payload).
    public let claims: [String: JSONValue]
    /// The header's `alg`, exactly as written (algorithm names are case-sensitive).
    public let algorithm: String
    /// The bytes the signature covers: the ASCII of `header-segment.payload-segment`.
    public let signingInput: Data
    /// The decoded signature bytes (empty for an unsecured token).
    public let signature: Data
    /// The compact serialization this value was parsed from, for handing the token on unchanged.
    public let compactSerialization: String

    /// Parses a compact JWS.
    ///
    /// - Parameter compact: `header.payload.signature`, each segment base64url.
    /// - Throws: ``JWTError`` when the text is not a structurally valid JWS with a JSON claims set.
    public init(compact: String) throws(JWTError) {
        let segments = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .wrongSegmentCount(segments.count) }
        header = try Self.decodeObject(String(segments[0]), part: .header)
        claims = try Self.decodeObject(String(segments[1]), part: .payload)
        guard let signature = Base64URL.decode(String(segments[2])) else { throw .invalidBase64URL(.signature) }
        guard let algorithm = header["alg"]?.stringValue else { throw .missingAlgorithm }
        guard header["crit"] == nil else { throw .unsupportedCriticalHeader }
        self.algorithm = algorithm
        self.signature = signature
        signingInput = Data("\(segments[0]).\(segments[1])".utf8)
        compactSerialization = compact
    }

    /// The header's `kid`, which names the key in the issuer's JWKS.
    public var keyID: String? { header["kid"]?.stringValue }

    /// The algorithm as one RegState supports, or `nil` for `none`, HMAC and everything else.
    public var signatureAlgorithm: SignatureAlgorithm? { SignatureAlgorithm(rawValue: algorithm) }

    private static func decodeObject(_ segment: String, part: JWTError.Part) throws(JWTError) -> [String: JSONValue] {
        guard !segment.isEmpty, let data = Base64URL.decode(segment) else { throw .invalidBase64URL(part) }
        guard let value = try? JSONValue.parse(data), let object = value.objectValue else {
            throw .notJSONObject(part)
        }
        return object
    }
}

extension JSONWebToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A redacted description: algorithm and key ID only, never the token.
    public var description: String {
        "JSONWebToken(alg: \(algorithm.prefix(32)), kid: \(keyID.map { String($0.prefix(64)) } ?? "none"), redacted)"
    }

    /// The same redacted description.
    public var debugDescription: String { description }

    /// A mirror with no claims or signature, so `dump` and debuggers do not print the token either.
    public var customMirror: Mirror {
        Mirror(self, children: ["algorithm": algorithm, "keyID": keyID as Any], displayStyle: .struct)
    }
}
