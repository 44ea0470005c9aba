import Foundation

/// A public key in a provider's ready form, parsed once, that verifies many signatures. Implementations hold no
/// mutable state visible to callers, so one value can be shared across tasks.
public protocol VerificationKey: Sendable {
    /// Whether `signature` is a valid `algorithm` signature of `message` by this key.
    ///
    /// A signature that does not verify (including one of the wrong length) returns `false`.
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the algorithm does not fit the key.
    func verify(signature: Data, message: Data, algorithm: SignatureAlgorithm) throws(CryptoError) -> Bool
}
