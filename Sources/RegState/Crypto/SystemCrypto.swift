import Foundation

/// The default ``CryptoProvider``: libcrypto (OpenSSL 3) on Linux, CryptoKit and Security on Apple platforms. It holds
/// no mutable state, so one value is shared freely; RSA keys under ``minimumRSAKeyBits`` bits are refused.
public struct SystemCrypto: CryptoProvider {
    /// The shortest RSA modulus, in bits, this provider verifies with, signs with or generates (RFC 7518 §3.3).
    public static let minimumRSAKeyBits = 2048
    /// The longest RSA modulus, in bits, this provider generates; longer keys only cost time.
    public static let maximumRSAKeyBits = 8192

    /// Where new P-256 keys are made (``P256KeyLocation``).
    public let p256Keys: P256KeyLocation

    /// Creates the provider; new P-256 keys are made where `p256Keys` says (in software by default).
    public init(p256Keys: P256KeyLocation = .software) {
        self.p256Keys = p256Keys
    }
}

extension SignatureAlgorithm {
    /// Whether the algorithm uses RSASSA-PSS padding (salt as long as the digest, MGF1 with the same hash).
    var usesPSS: Bool {
        switch self {
        case .rs256, .es256: false
        case .ps256, .ps512: true
        }
    }
}
