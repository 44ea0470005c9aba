import Foundation

/// A JWK Set (RFC 7517 §5): the keys an issuer publishes at its `jwks_uri`.
///
/// Decoding is lenient per key: an entry that is not a JWK at all is skipped instead of failing the whole set, since
/// a set may carry key types RegState does not use.
public struct JSONWebKeySet: Sendable, Hashable, Codable {
    /// The keys, in published order.
    public var keys: [JSONWebKey]

    private enum CodingKeys: String, CodingKey {
        case keys
    }

    /// Creates a set from keys.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// Decodes `{"keys": [...]}`, skipping entries that are not JWK objects.
    ///
    /// - Throws: `DecodingError` when there is no `keys` array.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var entries = try container.nestedUnkeyedContainer(forKey: .keys)
        var keys: [JSONWebKey] = []
        while !entries.isAtEnd {
            if let key = try? entries.decode(JSONWebKey.self) {
                keys.append(key)
            } else {
                // Consume the entry whatever it is, so decoding moves on to the next one.
                _ = try entries.decode(JSONValue.self)
            }
        }
        self.keys = keys
    }

    /// Encodes `{"keys": [...]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keys, forKey: .keys)
    }

    /// The RSA signing key a JWS header's `kid` names.
    ///
    /// With a `kid`, the first RSA signing key with that ID. Without one, the only RSA signing key when there is
    /// exactly one (RFC 7515 lets a header omit `kid` when the key is unambiguous); otherwise `nil`.
    public func key(withID keyID: String?) -> JSONWebKey? {
        let candidates = keys.filter(\.isRSASigningKey)
        guard let keyID else { return candidates.count == 1 ? candidates.first : nil }
        return candidates.first { $0.keyID == keyID }
    }
}
