import Foundation

/// Why a cryptographic operation failed.
public enum CryptoError: Error, Sendable, Equatable {
    /// The system's random generator failed.
    case randomFailed
    /// A key could not be used; the detail says why, never what the key is.
    case invalidKey(String)
    /// Signing failed.
    case signingFailed(String)
    /// Key generation failed.
    case keyGenerationFailed(String)
}

extension CryptoError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .randomFailed: "The system's random generator failed."
        case .invalidKey(let detail): "The key cannot be used (\(detail))."
        case .signingFailed(let detail): "Signing failed (\(detail))."
        case .keyGenerationFailed(let detail): "Key generation failed (\(detail))."
        }
    }
}
