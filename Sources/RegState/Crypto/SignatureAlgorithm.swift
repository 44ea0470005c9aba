/// The JWS signature algorithms RegState signs and verifies (RFC 7518 §3.3 and §3.5).
public enum SignatureAlgorithm: String, Sendable, Equatable, Codable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256: what OpenID providers sign ID tokens with.
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256 and a 32-byte salt.
    case ps256 = "PS256"
    /// RSASSA-PSS with SHA-512 and a 64-byte salt: the ongoing-access request signature.
    case ps512 = "PS512"
    /// ECDSA over P-256 with SHA-256 (RFC 7518 §3.4); signatures are `r || s`, 64 bytes.
    case es256 = "ES256"

    /// Whether the algorithm signs with an RSA key.
    package var isRSA: Bool { self != .es256 }
}
