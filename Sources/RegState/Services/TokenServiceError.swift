import Foundation

/// Why the token service could not do what was asked.
package enum TokenServiceError: Error, Sendable, Equatable {
    /// The stored credentials record is not readable (it is set aside by ``TokenService/inspect()``).
    case corrupt
    /// The stored credentials belong to another issuer or client; they are not used (and not touched).
    case boundElsewhere(CredentialBindingMismatch)
}

extension TokenServiceError: LocalizedError {
    package var errorDescription: String? {
        switch self {
        case .corrupt: "The stored credentials are damaged."
        case .boundElsewhere(let mismatch): "Not used: \(mismatch.sentence)."
        }
    }
}
