#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

// ES256 and ready keys on libcrypto. JOSE's `r || s` (RFC 7518 §3.4) and libcrypto's DER `ECDSA-Sig-Value` are
// converted at this boundary; a JOSE signature of any length but 64 bytes never reaches libcrypto.

extension SystemCrypto {
    /// A key loaded once into libcrypto (`EVP_PKEY`), reused for every verification.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` for an RSA key under 2048 bits or a point not on P-256.
    public func verificationKey(for key: PublicKeyMaterial) throws(CryptoError) -> any VerificationKey {
        switch key {
        case .rsa(let rsa): try LibCryptoVerificationKey(key: Self.loadPublicKey(rsa), material: key)
        case .p256(let p256): try LibCryptoVerificationKey(key: Self.loadP256PublicKey(p256), material: key)
        }
    }

    /// Whether `signature` (JOSE `r || s`) is a valid ES256 signature of `message` by `publicKey`.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the point is not on P-256.
    public func verify(signature: Data, message: Data, publicKey: P256PublicKey) throws(CryptoError) -> Bool {
        try verificationKey(for: .p256(publicKey)).verify(signature: signature, message: message, algorithm: .es256)
    }

    /// Generates a P-256 key with `EVP_PKEY_keygen` and exports it as PKCS #8 DER.
    public func generateP256PrivateKey() throws(CryptoError) -> P256PrivateKey {
        let key = try Self.generateP256Key()
        defer { EVP_PKEY_free(key) }
        return try Self.p256PrivateKey(of: key)
    }

    /// A new P-256 `EVP_PKEY`; the caller frees it (or hands it to a ``LibCryptoSigningKey``, which does).
    package static func generateP256Key() throws(CryptoError) -> OpaquePointer {
        try generateKey(EVP_PKEY_EC) { EVP_PKEY_CTX_set_ec_paramgen_curve_nid($0, NID_X9_62_prime256v1) }
    }

    /// `key`'s private half as PKCS #8 DER.
    package static func p256PrivateKey(of key: OpaquePointer) throws(CryptoError) -> P256PrivateKey {
        guard let info = EVP_PKEY2PKCS8(key) else {
            ERR_clear_error()
            throw CryptoError.keyGenerationFailed("libcrypto could not encode the key")
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        guard let der = encode(info, with: i2d_PKCS8_PRIV_KEY_INFO) else {
            throw CryptoError.keyGenerationFailed("libcrypto could not encode the key")
        }
        return P256PrivateKey(pkcs8DER: der)
    }

    /// The public half of a P-256 private key, read from its `SubjectPublicKeyInfo`.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the DER is not a P-256 private key.
    public func publicKey(of privateKey: P256PrivateKey) throws(CryptoError) -> P256PublicKey {
        let key = try Self.loadP256PrivateKey(privateKey)
        defer { EVP_PKEY_free(key) }
        guard let der = Self.encode(key, with: i2d_PUBKEY), let publicKey = DER.p256PublicKey(fromSubjectPublicKeyInfo: der)
        else { throw CryptoError.invalidKey("the public half cannot be encoded") }
        return publicKey
    }

    /// Signs `message` with ES256; the JOSE form (`r || s`, 64 bytes).
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` for a key that is not P-256, ``CryptoError/signingFailed(_:)``.
    public func sign(message: Data, privateKey: P256PrivateKey) throws(CryptoError) -> Data {
        try signingKey(for: privateKey).sign(message: message)
    }
}

extension SystemCrypto {
    /// Loads a P-256 point through its `SubjectPublicKeyInfo` (libcrypto checks it lies on the curve).
    static func loadP256PublicKey(_ key: P256PublicKey) throws(CryptoError) -> OpaquePointer {
        try decodeKey(DER.p256SubjectPublicKeyInfo(key), refusal: "not a point on P-256") { d2i_PUBKEY(nil, $0, $1) }
    }

    /// Loads PKCS #8 DER and checks it is an EC key on P-256.
    static func loadP256PrivateKey(_ key: P256PrivateKey) throws(CryptoError) -> OpaquePointer {
        let loaded = try decodeKey(key.pkcs8DER, refusal: "not a PKCS #8 private key") { d2i_AutoPrivateKey(nil, $0, $1) }
        var name = [CChar](repeating: 0, count: 64)
        var nameLength = 0
        guard EVP_PKEY_is_a(loaded, "EC") == 1,
            EVP_PKEY_get_group_name(loaded, &name, name.count, &nameLength) == 1,
            String(decoding: name.prefix(nameLength).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
        else {
            ERR_clear_error()
            EVP_PKEY_free(loaded)
            throw CryptoError.invalidKey("not a P-256 key")
        }
        return loaded
    }
}
#endif
