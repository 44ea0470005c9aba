import Foundation
import RegState
import RegStateOngoingAccess

/// The system's crypto with its random bytes drawn from the run's seed: tokens, PKCE verifiers, states and nonces
/// come out the same in every replay of a seed. Hashes, signatures and verification are the system's, with its ready
/// (loaded once) signing and verification keys. The public half of a private key is a pure function of it, so it is
/// worked out once per key (each simulated launch loads the same DPoP and provider keys again, and libcrypto's
/// decoding was a tenth of a run): per run for P-256 keys, per process for the few RSA provider keys.
final class SeededCrypto: RSASigningProvider, @unchecked Sendable {
    // @unchecked: `random` and the per-run memos are guarded by `lock`; `system` is immutable and Sendable.
    private let system = SystemCrypto()
    private let lock = NSLock()
    private var random: SeededRandom
    private var p256PublicKeys: [Data: P256PublicKey] = [:]
    /// P-256 private keys loaded for signing (DPoP keys, the provider's ES256 key) and public keys loaded for
    /// verifying, at most `readyMemoLimit` of each (forgotten together when full): loading a key costs libcrypto's
    /// decoder, far more than the signature or the check, and a run signs and checks with a few keys again and again.
    private var p256SigningKeys: [Data: any SigningKey] = [:]
    private var verificationKeys: [PublicKeyMaterial: any VerificationKey] = [:]
    private static let readyMemoLimit = 64
    /// The provider keys' public halves, at most `rsaMemoLimit` of them (forgotten together when full).
    private static let rsaPublicKeys = LockedValue<[Data: RSAPublicKey]>([:])
    private static let rsaMemoLimit = 16
    #if os(Linux)
    /// The provider keys loaded for signing, at most `rsaMemoLimit` of them (forgotten together when full).
    private static let rsaSigningKeys = LockedValue<[Data: LibCryptoRSASigningKey]>([:])
    #endif

    init(random: SeededRandom) { self.random = random }

    func randomBytes(count: Int) throws(CryptoError) -> Data {
        lock.withLock {
            var bytes = Data(capacity: count)
            while bytes.count < count {
                withUnsafeBytes(of: random.next().littleEndian) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
            }
            return bytes
        }
    }

    func sha256(_ data: Data) -> Data { system.sha256(data) }
    func hmacSHA256(key: Data, message: Data) -> Data { system.hmacSHA256(key: key, message: message) }
    func verify(signature: Data, message: Data, publicKey: RSAPublicKey, algorithm: SignatureAlgorithm) throws(CryptoError) -> Bool {
        guard algorithm.isRSA else { throw CryptoError.invalidKey("an RSA key cannot verify \(algorithm.rawValue)") }
        return try verificationKey(for: .rsa(publicKey)).verify(signature: signature, message: message, algorithm: algorithm)
    }
    func sign(message: Data, privateKey: RSAPrivateKey, algorithm: SignatureAlgorithm) throws(CryptoError) -> Data {
        #if os(Linux)
        // The provider signs every ID token with one of a few keys: each is loaded once, not per signature (the
        // load cost as much as the signature). The signature is libcrypto's, as without the memo.
        if let ready = Self.rsaSigningKeys.withLock({ $0[privateKey.pkcs1DER] }) {
            return try ready.sign(message: message, algorithm: algorithm)
        }
        let ready = try LibCryptoRSASigningKey(privateKey)
        Self.rsaSigningKeys.withLock { known in
            if known.count >= Self.rsaMemoLimit { known.removeAll() }
            known[privateKey.pkcs1DER] = ready
        }
        return try ready.sign(message: message, algorithm: algorithm)
        #else
        try system.sign(message: message, privateKey: privateKey, algorithm: algorithm)
        #endif
    }
    func generateRSAPrivateKey(bits: Int) throws(CryptoError) -> RSAPrivateKey { try system.generateRSAPrivateKey(bits: bits) }
    func publicKey(of privateKey: RSAPrivateKey) throws(CryptoError) -> RSAPublicKey {
        if let known = Self.rsaPublicKeys.withLock({ $0[privateKey.pkcs1DER] }) { return known }
        let publicKey = try system.publicKey(of: privateKey)
        Self.rsaPublicKeys.withLock { known in
            if known.count >= Self.rsaMemoLimit { known.removeAll() }
            known[privateKey.pkcs1DER] = publicKey
        }
        return publicKey
    }
    func verificationKey(for key: PublicKeyMaterial) throws(CryptoError) -> any VerificationKey {
        if let known = lock.withLock({ verificationKeys[key] }) { return known }
        let ready = try system.verificationKey(for: key)
        lock.withLock {
            if verificationKeys.count >= Self.readyMemoLimit { verificationKeys.removeAll() }
            verificationKeys[key] = ready
        }
        return ready
    }
    func verify(signature: Data, message: Data, publicKey: P256PublicKey) throws(CryptoError) -> Bool {
        try verificationKey(for: .p256(publicKey)).verify(signature: signature, message: message, algorithm: .es256)
    }
    func generateP256PrivateKey() throws(CryptoError) -> P256PrivateKey {
        #if os(Linux)
        // Its public half and its ready signing key come from the generated key, not from decoding its DER again.
        let (privateKey, publicKey, signingKey) = try system.generateReadyP256Key()
        lock.withLock {
            p256PublicKeys[privateKey.pkcs8DER] = publicKey
            if p256SigningKeys.count >= Self.readyMemoLimit { p256SigningKeys.removeAll() }
            p256SigningKeys[privateKey.pkcs8DER] = signingKey
        }
        return privateKey
        #else
        try system.generateP256PrivateKey()
        #endif
    }
    func publicKey(of privateKey: P256PrivateKey) throws(CryptoError) -> P256PublicKey {
        if let known = lock.withLock({ p256PublicKeys[privateKey.pkcs8DER] }) { return known }
        let publicKey = try system.publicKey(of: privateKey)
        lock.withLock { p256PublicKeys[privateKey.pkcs8DER] = publicKey }
        return publicKey
    }
    func sign(message: Data, privateKey: P256PrivateKey) throws(CryptoError) -> Data { try signingKey(for: privateKey).sign(message: message) }
    func signingKey(for privateKey: P256PrivateKey) throws(CryptoError) -> any SigningKey {
        if let known = lock.withLock({ p256SigningKeys[privateKey.pkcs8DER] }) { return known }
        let ready = try system.signingKey(for: privateKey)
        lock.withLock {
            if p256SigningKeys.count >= Self.readyMemoLimit { p256SigningKeys.removeAll() }
            p256SigningKeys[privateKey.pkcs8DER] = ready
        }
        return ready
    }
}
