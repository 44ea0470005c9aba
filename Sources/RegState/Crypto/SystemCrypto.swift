import Foundation

/// The default ``CryptoProvider``: the system's libcrypto (OpenSSL 3) on Linux, CryptoKit and Security on Apple
/// platforms.
///
/// It holds no state, so one value can be shared freely across tasks. RSA keys shorter than
/// ``SystemCrypto/minimumRSAKeyBits`` are refused for signing, verifying and generation, as RFC 7518 §3.3 requires
/// for the RS and PS algorithms.
public struct SystemCrypto: CryptoProvider {
    /// The shortest RSA modulus, in bits, this provider signs with, verifies with or generates (RFC 7518 §3.3).
    public static let minimumRSAKeyBits = 2048
    /// The longest RSA modulus, in bits, this provider generates; longer keys only cost time.
    public static let maximumRSAKeyBits = 8192

    /// Creates the provider.
    public init() {}
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
