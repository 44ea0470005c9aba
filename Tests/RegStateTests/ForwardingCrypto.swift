import Foundation
import RegState

/// `SystemCrypto` with what a test changes: a random generator that fails, a count of the keys made ready (to show
/// each JWK is parsed once per key set). The one crypto double of these tests.
struct ForwardingCrypto: CryptoProvider {
    /// A count shared by the copies of one provider.
    final class Counter: @unchecked Sendable {
        // Only touched under `lock`: safe to share across tasks.
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    let base = SystemCrypto()
    /// Whether `randomBytes(count:)` throws `CryptoError.randomFailed`.
    var failsRandom = false
    /// How many keys `verificationKey(for:)` made ready.
    let readyKeys = Counter()

    func sha256(_ data: Data) -> Data { base.sha256(data) }
    func hmacSHA256(key: Data, message: Data) -> Data { base.hmacSHA256(key: key, message: message) }
    func randomBytes(count: Int) throws(CryptoError) -> Data {
        if failsRandom { throw .randomFailed }
        return try base.randomBytes(count: count)
    }
    func verify(signature: Data, message: Data, publicKey: RSAPublicKey, algorithm: SignatureAlgorithm) throws(CryptoError) -> Bool {
        try base.verify(signature: signature, message: message, publicKey: publicKey, algorithm: algorithm)
    }
    func verify(signature: Data, message: Data, publicKey: P256PublicKey) throws(CryptoError) -> Bool {
        try base.verify(signature: signature, message: message, publicKey: publicKey)
    }
    func generateP256PrivateKey() throws(CryptoError) -> P256PrivateKey { try base.generateP256PrivateKey() }
    func publicKey(of privateKey: P256PrivateKey) throws(CryptoError) -> P256PublicKey {
        try base.publicKey(of: privateKey)
    }
    func sign(message: Data, privateKey: P256PrivateKey) throws(CryptoError) -> Data {
        try base.sign(message: message, privateKey: privateKey)
    }
    func verificationKey(for key: PublicKeyMaterial) throws(CryptoError) -> any VerificationKey {
        readyKeys.increment()
        return try base.verificationKey(for: key)
    }
}
