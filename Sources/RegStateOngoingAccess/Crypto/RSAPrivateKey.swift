import Foundation
import RegState

/// An RSA private key, held as PKCS #1 `RSAPrivateKey` DER bytes (the form both libcrypto and Security import).
///
/// Its description, debug description and mirror never show the key material.
public struct RSAPrivateKey: Sendable, Equatable, RedactedDescription {
    /// The PKCS #1 DER encoding.
    public let pkcs1DER: Data

    /// Wraps PKCS #1 DER bytes; they are checked when the key is first used.
    public init(pkcs1DER: Data) {
        self.pkcs1DER = pkcs1DER
    }

    /// A redacted description.
    public var description: String { "RSAPrivateKey(redacted)" }
}
