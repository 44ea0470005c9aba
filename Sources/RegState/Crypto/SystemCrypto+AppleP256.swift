#if !canImport(CLibCrypto) && canImport(CryptoKit)
import CryptoKit
import Foundation

// ES256 on Apple platforms through CryptoKit, whose raw signature form is already JOSE's `r || s`.
// Not compiled on Linux, where RegState is built and tested; kept small on purpose. Ready keys use the default
// (per-call verification): Security and CryptoKit keys are cheap to rebuild from their bytes.

extension SystemCrypto {
    /// Whether `signature` (JOSE `r || s`) is a valid ES256 signature of `message` by `publicKey`, from CryptoKit.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the point is not on P-256.
    public func verify(signature: Data, message: Data, publicKey: P256PublicKey) throws -> Bool {
        guard signature.count == 64 else { return false }
        let key: P256.Signing.PublicKey
        do {
            key = try P256.Signing.PublicKey(x963Representation: publicKey.uncompressedPoint)
        } catch {
            throw CryptoError.invalidKey("not a point on P-256")
        }
        guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return key.isValidSignature(parsed, for: message)
    }

    /// Generates a P-256 key with CryptoKit, exported as PKCS #8 DER.
    public func generateP256PrivateKey() throws -> P256PrivateKey {
        P256PrivateKey(pkcs8DER: P256.Signing.PrivateKey().derRepresentation)
    }

    /// The public half of a P-256 private key.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the DER is not a P-256 private key.
    public func publicKey(of privateKey: P256PrivateKey) throws -> P256PublicKey {
        let point = try Self.p256Key(privateKey).publicKey.x963Representation
        guard let key = P256PublicKey(x: Data(point.dropFirst().prefix(32)), y: Data(point.suffix(32))) else {
            throw CryptoError.invalidKey("the public half cannot be exported")
        }
        return key
    }

    /// Signs `message` with ES256; the JOSE form (`r || s`, 64 bytes).
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the DER is not a P-256 private key.
    public func sign(message: Data, privateKey: P256PrivateKey) throws -> Data {
        do {
            return try Self.p256Key(privateKey).signature(for: message).rawRepresentation
        } catch {
            throw CryptoError.signingFailed("CryptoKit refused to sign")
        }
    }

    private static func p256Key(_ key: P256PrivateKey) throws -> P256.Signing.PrivateKey {
        do {
            return try P256.Signing.PrivateKey(derRepresentation: key.pkcs8DER)
        } catch {
            throw CryptoError.invalidKey("not a PKCS #8 P-256 private key")
        }
    }
}
#endif
