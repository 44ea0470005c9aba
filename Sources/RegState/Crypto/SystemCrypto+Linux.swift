#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

// libcrypto (OpenSSL 3.0) through its non-deprecated EVP interface. Every object is freed with `defer`, and the
// thread's error queue is cleared after a failed call so a later, unrelated call never reports a stale error.

extension SystemCrypto {
    /// SHA-256 fetched once (an implicit fetch per `EVP_sha256()` digest costs more than hashing a short message);
    /// never freed or modified, which libcrypto allows sharing across threads.
    nonisolated(unsafe) static let sha256Type: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// The SHA-256 digest of `data`, from `EVP_Digest`.
    public func sha256(_ data: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = Self.withBytes(data) { bytes, count in
            EVP_Digest(bytes, count, &digest, &length, Self.sha256Type ?? EVP_sha256(), nil)
        }
        // SHA-256 over memory can only fail when libcrypto cannot allocate; there is nothing sensible to return.
        precondition(status == 1, "libcrypto SHA-256 failed")
        return Data(digest.prefix(Int(length)))
    }

    /// HMAC-SHA-256 of `message` under `key`, from libcrypto's one-shot `HMAC`.
    public func hmacSHA256(key: Data, message: Data) -> Data {
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = Self.withBytes(key) { keyBytes, keyCount in
            Self.withBytes(message) { messageBytes, messageCount in
                HMAC(EVP_sha256(), keyBytes, Int32(keyCount), messageBytes, messageCount, &mac, &length)
            }
        }
        precondition(result != nil, "libcrypto HMAC-SHA-256 failed")
        return Data(mac.prefix(Int(length)))
    }

    /// `count` bytes from the kernel's generator, `getrandom(2)`, the source libcrypto seeds its own from.
    ///
    /// Not `RAND_bytes`: its first call sets up libcrypto's generator (configuration, provider, DRBG), about 2 MiB of
    /// peak memory for a short process such as `regstate status`.
    ///
    /// - Throws: ``CryptoError/randomFailed`` when the generator fails or `count` is negative.
    public func randomBytes(count: Int) throws(CryptoError) -> Data {
        guard count >= 0, count <= Int(Int32.max) else { throw CryptoError.randomFailed }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return getrandom(base + filled, count - filled, 0)
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw CryptoError.randomFailed }
            filled += got
        }
        return Data(bytes)
    }

    /// Whether `signature` is a valid `algorithm` signature of `message` by `publicKey`.
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the key cannot be loaded, is shorter than 2048 bits, or
    ///   `algorithm` is not an RSA one.
    public func verify(
        signature: Data, message: Data, publicKey: RSAPublicKey, algorithm: SignatureAlgorithm
    ) throws(CryptoError) -> Bool {
        try verificationKey(for: .rsa(publicKey)).verify(signature: signature, message: message, algorithm: algorithm)
    }

    /// Signs `message` with the loaded `key` from `EVP_DigestSign`: with `algorithm`'s RSA padding, or for ES256 in
    /// the JOSE form (`r || s`, 64 bytes).
    package static func sign(message: Data, key: OpaquePointer, algorithm: SignatureAlgorithm) throws(CryptoError) -> Data {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.signingFailed("out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, Self.digest(for: algorithm), nil, key) == 1,
            let keyContext, algorithm == .es256 || Self.configurePadding(keyContext, algorithm: algorithm)
        else {
            ERR_clear_error()
            throw CryptoError.invalidKey("the key does not accept \(algorithm.rawValue)")
        }
        var signature = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(key)))
        var length = signature.count
        let status = Self.withBytes(message) { messageBytes, messageCount in
            EVP_DigestSign(context, &signature, &length, messageBytes, messageCount)
        }
        let signed = Data(signature.prefix(length))
        guard status == 1, let result = algorithm == .es256 ? DER.joseSignature(ecdsa: signed) : signed else {
            ERR_clear_error()
            throw CryptoError.signingFailed("libcrypto refused to sign")
        }
        return result
    }
}

extension SystemCrypto {
    static func digest(for algorithm: SignatureAlgorithm) -> OpaquePointer? {
        switch algorithm {
        case .rs256, .ps256, .es256: EVP_sha256()
        case .ps512: EVP_sha512()
        }
    }

    /// PKCS #1 v1.5 for RS256; PSS with a digest-long salt and MGF1 over the same hash for PS256/PS512 (RFC 7518 §3.5).
    static func configurePadding(_ keyContext: OpaquePointer, algorithm: SignatureAlgorithm) -> Bool {
        guard algorithm.usesPSS else {
            return EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1
        }
        return EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1
            && EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) == 1
            && EVP_PKEY_CTX_set_rsa_mgf1_md(keyContext, digest(for: algorithm)) == 1
    }

    /// Loads a modulus and exponent through their PKCS #1 DER.
    static func loadPublicKey(_ key: RSAPublicKey) throws(CryptoError) -> OpaquePointer {
        guard !key.modulus.isEmpty, !key.exponent.isEmpty else {
            throw CryptoError.invalidKey("empty modulus or exponent")
        }
        let der = DER.rsaPublicKey(modulus: key.modulus, exponent: key.exponent)
        let loaded = try decodeKey(der, refusal: "not a usable RSA public key") { d2i_PublicKey(EVP_PKEY_RSA, nil, $0, $1) }
        return try checked(loaded, checkingSize: true)
    }

    /// Reads `der` with one of libcrypto's `d2i_*` decoders (given the cursor and the length).
    package static func decodeKey(
        _ der: Data, refusal: String, with decoder: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?
    ) throws(CryptoError) -> OpaquePointer {
        let bytes = Array(der)
        let loaded: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard !buffer.isEmpty else { return nil }
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return decoder(&cursor, buffer.count)
        }
        guard let loaded else {
            ERR_clear_error()
            throw CryptoError.invalidKey(refusal)
        }
        return loaded
    }

    /// Generates a key of libcrypto type `type` with `EVP_PKEY_keygen`, after `configure` set its size or curve.
    package static func generateKey(_ type: Int32, configure: (OpaquePointer) -> Int32) throws(CryptoError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_id(type, nil) else { throw CryptoError.keyGenerationFailed("out of memory") }
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, configure(context) == 1, EVP_PKEY_keygen(context, &generated) == 1,
            let key = generated
        else {
            ERR_clear_error()
            throw CryptoError.keyGenerationFailed("libcrypto could not generate the key")
        }
        return key
    }

    /// Frees `key` and throws when it is not RSA or (when asked) is shorter than the minimum.
    package static func checked(_ key: OpaquePointer, checkingSize: Bool) throws(CryptoError) -> OpaquePointer {
        guard EVP_PKEY_is_a(key, "RSA") == 1 else {
            EVP_PKEY_free(key)
            throw CryptoError.invalidKey("not an RSA key")
        }
        if checkingSize, EVP_PKEY_get_bits(key) < Int32(minimumRSAKeyBits) {
            EVP_PKEY_free(key)
            throw CryptoError.invalidKey("modulus shorter than \(minimumRSAKeyBits) bits")
        }
        return key
    }

    /// Runs one of libcrypto's `i2d_*` encoders twice: once for the length, once into a buffer of that length.
    package static func encode(
        _ key: OpaquePointer,
        with encoder: (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) -> Data? {
        let length = encoder(key, nil)
        guard length > 0 else {
            ERR_clear_error()
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return encoder(key, &cursor)
        }
        guard written == length else {
            ERR_clear_error()
            return nil
        }
        return Data(bytes)
    }

    /// Calls `body` with a pointer to `data`'s bytes and their count; the pointer is never `nil`, even for empty data,
    /// because some libcrypto entry points reject a `NULL` buffer of length zero.
    static func withBytes<Result>(
        _ data: Data, _ body: (UnsafePointer<UInt8>, Int) throws -> Result
    ) rethrows -> Result {
        let bytes = data.isEmpty ? [0] : Array(data)
        return try bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { preconditionFailure("non-empty array without storage") }
            return try body(base, data.count)
        }
    }
}
#endif
