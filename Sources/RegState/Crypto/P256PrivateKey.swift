import Foundation

/// A P-256 private key: PKCS #8 DER (what libcrypto and CryptoKit import and export) or a reference to a Secure Enclave
/// key, whose private half never leaves it. Its description, debug description and mirror never show the key.
public struct P256PrivateKey: Sendable, Equatable, RedactedDescription {
    /// The PKCS #8 `PrivateKeyInfo` DER encoding; empty for a Secure Enclave key.
    public let pkcs8DER: Data
    /// CryptoKit's `SecureEnclave.P256.Signing.PrivateKey.dataRepresentation` of a key made in the Secure Enclave
    /// (an opaque blob only that device's Secure Enclave can use); `nil` for a software key.
    public let secureEnclaveReference: Data?

    /// Wraps PKCS #8 DER bytes; they are checked when the key is first used.
    public init(pkcs8DER: Data) {
        self.pkcs8DER = pkcs8DER
        secureEnclaveReference = nil
    }

    /// Wraps a Secure Enclave key's data representation; only Apple's provider can use it (elsewhere every use is
    /// ``CryptoError/invalidKey(_:)``).
    public init(secureEnclaveReference: Data) {
        pkcs8DER = Data()
        self.secureEnclaveReference = secureEnclaveReference
    }

    /// A redacted description.
    public var description: String { "P256PrivateKey(redacted)" }

    /// A mirror without the key material: where the key lives, nothing else.
    public var customMirror: Mirror {
        Mirror(self, children: ["inSecureEnclave": secureEnclaveReference != nil, "key": "redacted"],
               displayStyle: .struct)
    }
}
