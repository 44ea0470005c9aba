import Foundation

/// A JWK Set (RFC 7517 §5), the keys an issuer publishes at its `jwks_uri`: read by ``parse(_:)`` strictly as a
/// document, leniently per key (an unusable entry is skipped); each key is made ready once per set value; `==` and
/// hashing look at the keys only.
public struct JSONWebKeySet: Sendable, Hashable, Encodable {
    /// The keys, in published order.
    package var keys: [JSONWebKey] {
        didSet { readyKeys = ReadyKeyCache() }
    }
    private var readyKeys = ReadyKeyCache()

    private enum CodingKeys: String, CodingKey {
        case keys
    }

    /// Why bytes are not a JWK Set.
    public enum ParseError: Error, Sendable, Equatable {
        /// The strict JSON reading refused the text (within `JSONLimits.keySet`).
        case json(JSONParseError)
        /// The text is JSON but not an object with a `keys` array.
        case noKeysArray
    }

    package init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// Reads a JWKS document strictly: `JSONValue.parse(_:limits:)` under `JSONLimits.keySet` (duplicate
    /// members refused everywhere, including inside keys), then each entry of `keys`; entries that are not objects
    /// with string members are skipped.
    public static func parse(_ data: Data) throws(ParseError) -> JSONWebKeySet {
        let document: JSONValue
        do throws(JSONParseError) {
            document = try JSONValue.parse(data, limits: .keySet)
        } catch {
            throw .json(error)
        }
        guard let entries = document["keys"]?.arrayValue else { throw .noKeysArray }
        return JSONWebKeySet(keys: entries.compactMap(Self.key(from:)))
    }

    private static func key(from entry: JSONValue) -> JSONWebKey? {
        guard let members = entry.objectValue, let keyType = members["kty"]?.stringValue else { return nil }
        var strings: [String: String] = [:]
        for name in ["kid", "use", "alg", "n", "e", "crv", "x", "y"] {
            switch members[name] {
            case nil: continue
            case .string(let value)?: strings[name] = value
            default: return nil
            }
        }
        return JSONWebKey(keyType: keyType, keyID: strings["kid"], use: strings["use"], algorithm: strings["alg"],
                          modulus: strings["n"], exponent: strings["e"], curve: strings["crv"], x: strings["x"],
                          y: strings["y"])
    }

    /// Encodes `{"keys": [...]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keys, forKey: .keys)
    }

    /// Sets are equal when their keys are.
    public static func == (lhs: JSONWebKeySet, rhs: JSONWebKeySet) -> Bool { lhs.keys == rhs.keys }

    /// Hashes the keys.
    public func hash(into hasher: inout Hasher) { hasher.combine(keys) }

    /// Where a token's key is in the set, chosen only by `kid` (never by `jku`, `x5u` or `jwk`, RFC 8725 §3.10): the
    /// first signing key with that ID that fits `algorithm` (type, curve, own `alg`), or without one the only one.
    package func indexOfKey(withID keyID: String?, for algorithm: SignatureAlgorithm) throws(IDTokenError) -> Int {
        if let keyID {
            var named = false
            for (index, key) in keys.enumerated() where key.keyID == keyID && key.isSigningKey {
                if key.fits(algorithm) { return index }
                named = true
            }
            throw named ? .keyDoesNotFitAlgorithm(algorithm.rawValue) : .unknownKeyID(keyID)
        }
        // Without a `kid` the key must be unambiguous: the only signing key of a type RegState verifies with.
        let candidates = keys.indices.filter { keys[$0].isSigningKey && ["RSA", "EC"].contains(keys[$0].keyType) }
        guard candidates.count == 1, let only = candidates.first else { throw .unknownKeyID(nil) }
        guard keys[only].fits(algorithm) else { throw .keyDoesNotFitAlgorithm(algorithm.rawValue) }
        return only
    }

    /// The ready form of the key at `index`, made by `crypto` on first use and cached in this set; a failure is
    /// cached too, so a bad key is not parsed again for every token.
    package func verificationKey(at index: Int, crypto: any CryptoProvider) throws -> any VerificationKey {
        try readyKeys.key(at: index, provider: ObjectIdentifier(type(of: crypto))) {
            try crypto.verificationKey(for: keys[index].publicKeyMaterial())
        }.get()
    }
}
