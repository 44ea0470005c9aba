import Foundation

/// A parsed JWS in compact serialization (RFC 7515 §7.1) whose payload is a JWT claims set (RFC 7519). Parsing checks
/// structure only; nothing is trusted until ``IDTokenValidator`` (or another verifier) says so. Redacted.
package struct JSONWebToken: Sendable, Equatable {
    /// The longest compact token accepted, in bytes (16 KiB): far above any real ID token, far below harm.
    package static let maximumCompactLength = 16 << 10

    /// The protected header members.
    package let header: [String: JSONValue]
    /// The claims (the decoded payload).
    package let claims: [String: JSONValue]
    /// The header's `alg`, exactly as written (algorithm names are case-sensitive).
    package let algorithm: String
    /// The header's `kid`, which names the key in the issuer's JWKS.
    package let keyID: String?
    /// The bytes the signature covers: the ASCII of `header-segment.payload-segment`.
    package let signingInput: Data
    /// The decoded signature bytes (empty for an unsecured token).
    package let signature: Data
    /// The compact serialization this value was parsed from, for handing the token on unchanged.
    package let compactSerialization: String

    /// Parses a compact JWS, `header.payload.signature`, whose payload is a JSON object.
    package init(compact: String) throws(JWTError) {
        var text = compact
        guard text.utf8.count <= Self.maximumCompactLength else { throw .tooLarge(limit: Self.maximumCompactLength) }
        let parts = text.withUTF8 { Self.parts(of: $0) }
        let parsed = try parts.get()
        header = parsed.header
        claims = parsed.claims
        signature = Data(parsed.signature)
        signingInput = parsed.signingInput
        guard case .string(let algorithm)? = header["alg"] else { throw .missingAlgorithm }
        self.algorithm = algorithm
        // RFC 7515 §4.1.11: RegState understands no extension, so any `crit` (well-formed or not) is refused.
        guard header["crit"] == nil else { throw .unsupportedCriticalHeader }
        switch header["kid"] {
        case nil: keyID = nil
        case .string(let value)?: keyID = value
        default: throw .invalidHeaderMember("kid")
        }
        compactSerialization = compact
    }

    /// The algorithm as one RegState supports, or `nil` for `none`, HMAC and everything else.
    package var signatureAlgorithm: SignatureAlgorithm? { SignatureAlgorithm(rawValue: algorithm) }

    private struct Parts {
        var header: [String: JSONValue]
        var claims: [String: JSONValue]
        var signature: [UInt8]
        var signingInput: Data
    }

    /// Splits on the two `.` bytes and decodes each segment.
    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> Result<Parts, JWTError> {
        var dots: [Int] = []
        for index in bytes.indices where bytes[index] == UInt8(ascii: ".") { dots.append(index) }
        guard dots.count == 2 else { return .failure(.wrongSegmentCount(dots.count + 1)) }
        let first = dots[0], second = dots[1]
        do throws(JWTError) {
            let header = try object(UnsafeBufferPointer(rebasing: bytes[0..<first]), part: .header)
            let claims = try object(UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second]), part: .payload)
            guard let signature = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[(second + 1)...])) else {
                throw .invalidBase64URL(.signature)
            }
            let signingInput = Data(UnsafeBufferPointer(rebasing: bytes[0..<second]))
            return .success(Parts(header: header, claims: claims, signature: signature, signingInput: signingInput))
        } catch {
            return .failure(error)
        }
    }

    private static func object(_ segment: UnsafeBufferPointer<UInt8>, part: JWTError.Part) throws(JWTError)
        -> [String: JSONValue]
    {
        guard !segment.isEmpty, let decoded = Base64URL.decode(bytes: segment) else { throw .invalidBase64URL(part) }
        let value = decoded.withUnsafeBufferPointer {
            JSONByteParser.parse($0, maximumDepth: JSONLimits.joseSegment.maximumDepth)
        }
        switch value {
        case .success(.object(let members)): return members
        case .success: throw .notJSONObject(part)
        case .failure(let error): throw .invalidJSON(part, error)
        }
    }
}

extension JSONWebToken: RedactedDescription {
    /// A redacted description: algorithm and key ID only, never the token.
    package var description: String {
        "JSONWebToken(alg: \(algorithm.prefix(32)), kid: \(keyID.map { String($0.prefix(64)) } ?? "none"), redacted)"
    }
}
