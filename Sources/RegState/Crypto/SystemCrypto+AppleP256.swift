#if !canImport(CLibCrypto) && (canImport(CryptoKit) || REGSTATE_APPLE_TYPECHECK)
#if canImport(CryptoKit)
import CryptoKit
#endif
import Foundation

// ES256 through CryptoKit, whose raw signature form is already JOSE's `r || s`; the key in software or in the Secure
// Enclave. Ready keys use the default (CryptoKit keys are cheap to rebuild). Type-checked on Linux.

extension SystemCrypto {
    /// Whether `signature` (JOSE `r || s`) is a valid ES256 signature of `message` by `publicKey`, from CryptoKit.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the point is not on P-256.
    public func verify(signature: Data, message: Data, publicKey: P256PublicKey) throws(CryptoError) -> Bool {
        guard signature.count == 64 else { return false }
        guard let key = try? P256.Signing.PublicKey(x963Representation: publicKey.uncompressedPoint) else {
            throw CryptoError.invalidKey("not a point on P-256")
        }
        guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return key.isValidSignature(parsed, for: message)
    }

    /// Generates a P-256 key: in the Secure Enclave when ``p256Keys`` asks for it and the device has one
    /// (`SecureEnclave.isAvailable`), otherwise with CryptoKit in software, exported as PKCS #8 DER.
    ///
    /// - Throws: ``CryptoError/keyGenerationFailed(_:)`` when the Secure Enclave refuses to make a key.
    public func generateP256PrivateKey() throws(CryptoError) -> P256PrivateKey {
        if p256Keys == .secureEnclaveWhenAvailable, SecureEnclave.isAvailable {
            guard let key = try? SecureEnclave.P256.Signing.PrivateKey() else {
                throw CryptoError.keyGenerationFailed("the Secure Enclave could not make the key")
            }
            return P256PrivateKey(secureEnclaveReference: key.dataRepresentation)
        }
        return P256PrivateKey(pkcs8DER: P256.Signing.PrivateKey().derRepresentation)
    }

    /// The public half of a P-256 private key.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the key is not a P-256 private key this device can use.
    public func publicKey(of privateKey: P256PrivateKey) throws(CryptoError) -> P256PublicKey {
        let point = try Self.withP256Key(privateKey, software: { $0.publicKey.x963Representation },
                                         enclave: { $0.publicKey.x963Representation })
        guard let key = P256PublicKey(x: Data(point.dropFirst().prefix(32)), y: Data(point.suffix(32))) else {
            throw CryptoError.invalidKey("the public half cannot be exported")
        }
        return key
    }

    /// Signs `message` with ES256; the JOSE form (`r || s`, 64 bytes).
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the key cannot be used; ``CryptoError/signingFailed(_:)``.
    public func sign(message: Data, privateKey: P256PrivateKey) throws(CryptoError) -> Data {
        let signature = try Self.withP256Key(privateKey,
                                             software: { try? $0.signature(for: message).rawRepresentation },
                                             enclave: { try? $0.signature(for: message).rawRepresentation })
        guard let signature else {
            let signer = privateKey.secureEnclaveReference == nil ? "CryptoKit" : "the Secure Enclave"
            throw CryptoError.signingFailed("\(signer) refused to sign")
        }
        return signature
    }

    /// Rebuilds `key` in CryptoKit's form, in software or in the Secure Enclave, and runs the matching body.
    private static func withP256Key<T>(
        _ key: P256PrivateKey, software: (P256.Signing.PrivateKey) throws(CryptoError) -> T,
        enclave: (SecureEnclave.P256.Signing.PrivateKey) throws(CryptoError) -> T
    ) throws(CryptoError) -> T {
        if let reference = key.secureEnclaveReference {
            guard let rebuilt = try? SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: reference) else {
                throw CryptoError.invalidKey("not a Secure Enclave key of this device")
            }
            return try enclave(rebuilt)
        }
        guard let rebuilt = try? P256.Signing.PrivateKey(derRepresentation: key.pkcs8DER) else {
            throw CryptoError.invalidKey("not a PKCS #8 P-256 private key")
        }
        return try software(rebuilt)
    }
}
#endif
