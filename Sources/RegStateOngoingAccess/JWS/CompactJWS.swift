import Foundation
import RegState

/// A JWS in compact serialization (RFC 7515 §7.1) with a JSON-object payload: the signed requests an app sends to an
/// ongoing-access provider and the signed answers it gets back.
///
/// Parsing checks structure only (through `JSONValue/parse(_:limits:)`, the package's one JSON reading); nothing is trusted
/// until ``JWSVerifier`` says so. The description shows the algorithm and key ID only: the payload can hold tokens.
public struct CompactJWS: Sendable, Equatable {
    /// The protected header members.
    public let header: [String: JSONValue]
    /// The payload members.
    public let payload: [String: JSONValue]
    /// The bytes the signature covers: the ASCII of `header-segment.payload-segment`.
    public let signingInput: Data
    /// The decoded signature.
    public let signature: Data

    /// Parses `compact`.
    ///
    /// - Throws: ``JWSRejection/malformed(_:)`` naming the part that is wrong.
    public init(parsing compact: String) throws(JWSRejection) {
        let segments = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .malformed("\(segments.count) segments, not 3") }
        header = try Self.object(segments[0], part: "header")
        payload = try Self.object(segments[1], part: "payload")
        guard let signature = Base64URL.decode(String(segments[2])) else { throw .malformed("signature is not base64url") }
        self.signature = signature
        signingInput = Data("\(segments[0]).\(segments[1])".utf8)
    }

    /// The header's `alg`, exactly as written.
    public var algorithm: String? { header["alg"]?.stringValue }
    /// The header's `kid`.
    public var keyID: String? { header["kid"]?.stringValue }
    /// The header's `jku`: where the signer says its key set is (never fetched unless allow-listed).
    public var keySetURL: String? { header["jku"]?.stringValue }

    /// Signs `payload` and returns the compact JWS.
    ///
    /// The header is `extra` with `alg`, `typ: JWT` (unless `extra` names a type) and `kid`. Members are serialized
    /// with sorted keys. `algorithm` is PS512 for ongoing-access requests; RS256 and PS256 also work.
    /// - Throws: `CryptoError` when the key is unusable or signing fails.
    public static func sign(
        payload: [String: JSONValue], header extra: [String: JSONValue] = [:], keyID: String?,
        privateKey: RSAPrivateKey, algorithm: SignatureAlgorithm, crypto: any CryptoProvider
    ) throws(CryptoError) -> String {
        var header = extra
        header["alg"] = .string(algorithm.rawValue)
        if header["typ"] == nil { header["typ"] = "JWT" }
        if let keyID { header["kid"] = .string(keyID) }
        let input = Base64URL.encode(JSONValue.object(header).serialized()) + "."
            + Base64URL.encode(JSONValue.object(payload).serialized())
        let signature = try crypto.sign(message: Data(input.utf8), privateKey: privateKey, algorithm: algorithm)
        return input + "." + Base64URL.encode(signature)
    }

    private static func object(_ segment: Substring, part: String) throws(JWSRejection) -> [String: JSONValue] {
        guard !segment.isEmpty, let data = Base64URL.decode(String(segment)) else {
            throw .malformed("\(part) is not base64url")
        }
        guard let value = try? JSONValue.parse(data), let object = value.objectValue else {
            throw .malformed("\(part) is not one JSON object")
        }
        return object
    }
}

extension CompactJWS: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Algorithm and key ID only.
    public var description: String {
        "CompactJWS(alg: \((algorithm ?? "none").prefix(32)), kid: \((keyID ?? "none").prefix(64)), redacted)"
    }

    /// The same redacted description.
    public var debugDescription: String { description }

    /// A mirror without header values, payload or signature.
    public var customMirror: Mirror { Mirror(self, children: ["jws": description]) }
}
