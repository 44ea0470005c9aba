import Foundation
import RegState

/// The system's crypto with its random bytes drawn from the run's seed: tokens, PKCE verifiers, states and nonces
/// come out the same in every replay of a seed. Hashes, signatures and verification are the system's.
final class SeededCrypto: CryptoProvider, @unchecked Sendable {
    // @unchecked: `random` is guarded by `lock`; `system` is immutable and Sendable.
    private let system = SystemCrypto()
    private let lock = NSLock()
    private var random: SeededRandom

    init(random: SeededRandom) { self.random = random }

    func randomBytes(count: Int) throws -> Data {
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
    func verify(signature: Data, message: Data, publicKey: RSAPublicKey, algorithm: SignatureAlgorithm) throws -> Bool {
        try system.verify(signature: signature, message: message, publicKey: publicKey, algorithm: algorithm)
    }
    func sign(message: Data, privateKey: RSAPrivateKey, algorithm: SignatureAlgorithm) throws -> Data {
        try system.sign(message: message, privateKey: privateKey, algorithm: algorithm)
    }
    func generateRSAPrivateKey(bits: Int) throws -> RSAPrivateKey { try system.generateRSAPrivateKey(bits: bits) }
    func publicKey(of privateKey: RSAPrivateKey) throws -> RSAPublicKey { try system.publicKey(of: privateKey) }
    func verificationKey(for key: PublicKeyMaterial) throws -> any VerificationKey { try system.verificationKey(for: key) }
    func verify(signature: Data, message: Data, publicKey: P256PublicKey) throws -> Bool {
        try system.verify(signature: signature, message: message, publicKey: publicKey)
    }
    func generateP256PrivateKey() throws -> P256PrivateKey { try system.generateP256PrivateKey() }
    func publicKey(of privateKey: P256PrivateKey) throws -> P256PublicKey { try system.publicKey(of: privateKey) }
    func sign(message: Data, privateKey: P256PrivateKey) throws -> Data { try system.sign(message: message, privateKey: privateKey) }
}
