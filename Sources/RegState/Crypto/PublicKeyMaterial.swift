/// A public key of one of the families RegState verifies with.
public enum PublicKeyMaterial: Sendable, Hashable {
    /// An RSA key, for RS256, PS256 and PS512.
    case rsa(RSAPublicKey)
    /// A P-256 key, for ES256.
    case p256(P256PublicKey)

    /// Whether a signature made with `algorithm` can be checked with this key: RSA keys for the RSA algorithms,
    /// P-256 keys for ES256 (RFC 8725 §3.1: the key's type must fit the algorithm).
    public func fits(_ algorithm: SignatureAlgorithm) -> Bool {
        switch self {
        case .rsa: algorithm.isRSA
        case .p256: algorithm == .es256
        }
    }
}
