import Foundation
import RegState

/// Verifies a provider's signed answers with a fixed policy: an algorithm allow-list, a `kid` that must name a known
/// key, a `jku` that must be on an allow-list (and is fetched only then), keys of at least 2048 bits and signatures
/// exactly as long as the key.
///
/// The checks run in that order and the first failure is reported, before any claim is read. Keys come from the
/// pinned ``keys`` first; an allow-listed `jku` is fetched only when the pinned set has no key with the `kid`.
package struct JWSVerifier: Sendable {
    /// The algorithms accepted: PS512 alone unless the app widens it, explicitly. `none` and HMAC cannot be
    /// expressed, so they are never accepted. A key that names its `alg` verifies that algorithm only.
    package var allowedAlgorithms: Set<SignatureAlgorithm>
    /// The provider's keys, pinned in the app.
    package var keys: JSONWebKeySet
    /// The key-set URLs a `jku` header may name; compared by scheme, host, port and path.
    package var allowedKeySetURLs: [URL]
    /// The provider that checks signatures.
    package var crypto: any CryptoProvider

    /// Creates a verifier over the pinned `keys`. `allowedAlgorithms` is PS512 only by default; widening it (adding
    /// RS256, say) is an explicit choice: then an answer in any listed algorithm verifies against a pinned key that
    /// carries no `alg`. No `jku` is followed by default.
    package init(keys: JSONWebKeySet, allowedAlgorithms: Set<SignatureAlgorithm> = [.ps512],
                allowedKeySetURLs: [URL] = [], crypto: any CryptoProvider = SystemCrypto()) {
        self.keys = keys
        self.allowedAlgorithms = allowedAlgorithms
        self.allowedKeySetURLs = allowedKeySetURLs
        self.crypto = crypto
    }

    /// Verifies `compact` against the pinned keys only (an allow-listed `jku` is accepted but not fetched).
    ///
    /// - Throws: ``JWSRejection`` for the first check that fails.
    package func verify(_ compact: String) throws(JWSRejection) -> JSONWebToken {
        let jws = try Self.parse(compact)
        let (algorithm, keyID) = try checkHeader(jws)
        guard let jwk = keys.key(withID: keyID) else { throw .unknownKeyID(keyID) }
        try checkSignature(jws, algorithm: algorithm, jwk: jwk)
        return jws
    }

    /// Verifies `compact`, fetching the key set of an allow-listed `jku` with `fetchKeySet` when the pinned keys do
    /// not have the `kid`. A `jku` off the allow-list is refused before anything is fetched.
    ///
    /// - Throws: ``JWSRejection`` for the first check that fails.
    package func verify(
        _ compact: String, fetchKeySet: @Sendable (URL) async throws(JWSRejection) -> JSONWebKeySet
    ) async throws(JWSRejection) -> JSONWebToken {
        let jws = try Self.parse(compact)
        let (algorithm, keyID) = try checkHeader(jws)
        var jwk = keys.key(withID: keyID)
        if jwk == nil, let text = jws.header["jku"]?.stringValue, let url = URL(string: text) {
            jwk = try await fetchKeySet(url).key(withID: keyID)
        }
        guard let jwk else { throw .unknownKeyID(keyID) }
        try checkSignature(jws, algorithm: algorithm, jwk: jwk)
        return jws
    }

    /// Whether `url` is on the `jku` allow-list.
    package func allows(keySetURL url: URL) -> Bool {
        allowedKeySetURLs.contains { Self.sameLocation($0, url) }
    }

    /// Reads `compact` with the package's one JWS reader (``JSONWebToken``): structure only, nothing trusted yet.
    private static func parse(_ compact: String) throws(JWSRejection) -> JSONWebToken {
        do {
            return try JSONWebToken(compact: compact)
        } catch .missingAlgorithm {
            throw .unsupportedAlgorithm("(none given)")
        } catch .unsupportedCriticalHeader {
            throw .criticalHeader
        } catch .invalidHeaderMember("kid") {
            throw .missingKeyID
        } catch {
            throw .malformed(error.errorDescription ?? "not a compact JWS")
        }
    }

    private func checkHeader(_ jws: JSONWebToken) throws(JWSRejection) -> (SignatureAlgorithm, String) {
        guard let algorithm = jws.signatureAlgorithm, allowedAlgorithms.contains(algorithm) else {
            throw .unsupportedAlgorithm(jws.algorithm)
        }
        guard let keyID = jws.keyID, !keyID.isEmpty else { throw .missingKeyID }
        if let text = jws.header["jku"]?.stringValue {
            guard let url = URL(string: text), allows(keySetURL: url) else {
                throw .foreignKeySetURL(URL(string: text)?.host ?? "an unreadable URL")
            }
        }
        return (algorithm, keyID)
    }

    private func checkSignature(_ jws: JSONWebToken, algorithm: SignatureAlgorithm, jwk: JSONWebKey) throws(JWSRejection) {
        if let keyAlgorithm = jwk.algorithm, keyAlgorithm != algorithm.rawValue { throw .keyAlgorithmMismatch }
        let key: RSAPublicKey
        do {
            key = try jwk.rsaPublicKey()
        } catch {
            throw .unknownKeyID(jwk.keyID ?? "")
        }
        guard key.bitCount >= SystemCrypto.minimumRSAKeyBits else { throw .weakKey(bits: key.bitCount) }
        let expected = (key.bitCount + 7) / 8
        guard jws.signature.count == expected else {
            throw .signatureLengthMismatch(expected: expected, found: jws.signature.count)
        }
        let valid = (try? crypto.verify(signature: jws.signature, message: jws.signingInput, publicKey: key,
                                        algorithm: algorithm)) ?? false
        guard valid else { throw .invalidSignature }
    }

    private static func sameLocation(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && lhs.port == rhs.port && lhs.path == rhs.path && rhs.query == nil && rhs.fragment == nil
            && rhs.user == nil && rhs.password == nil
    }
}
