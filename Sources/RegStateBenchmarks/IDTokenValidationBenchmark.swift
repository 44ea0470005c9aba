#if canImport(CLibCrypto)
import CLibCrypto
#endif
import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator

/// ID-token validation against its floor, measured in the same run: the whole
/// `IDTokenValidator.validate` (parse, strict base64url and JSON, key lookup, signature, every OIDC check) of an
/// RS256 token with the JWK set already loaded, against a bare libcrypto RS256 verify of the same token's signing
/// input and signature with the key preloaded (`EVP_MD_CTX_new`, `EVP_DigestVerifyInit`, `EVP_DigestVerify`).
///
/// Each round times `iterations` calls of each, interleaved in blocks of 100, and keeps the mean per call; the
/// figures are min, median and max over the rounds, and the ratio is taken per round. It runs twice: in wall time,
/// and in the thread's CPU time, which a loaded shared machine disturbs far less.
enum IDTokenValidationBenchmark {
    static func run(rounds: Int = 9, iterations: Int = 2_000) throws {
        let crypto = SystemCrypto()
        let privateKey = try crypto.generateRSAPrivateKey(bits: 2048)
        let publicKey = try crypto.publicKey(of: privateKey)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let seconds = Int(now.timeIntervalSince1970)
        let claims: [String: JSONValue] = [
            "iss": "https://idp.regstate.sim", "sub": "5f1c9a0e-3b7d-4c2a-9e61-0d8f4b2a7c35", "aud": "regstate-cli",
            "exp": .number(Double(seconds + 3600)), "iat": .number(Double(seconds)),
            "auth_time": .number(Double(seconds)), "nonce": "Qm9vdHN0cmFwLW5vbmNlLXZhbHVlLTAxMjM0NTY3ODk",
            "email": "alice@example.com", "email_verified": true, "name": "Alice Example",
            "at_hash": "x4Qd2TqL0tq7VvY3fVnW9g", "sid": "a3f1c2d4-5e6f-7081-92a3-b4c5d6e7f809",
        ]
        let token = try JSONWebToken.sign(claims: claims, keyID: "bench-key", privateKey: privateKey,
                                          algorithm: .rs256, crypto: crypto)
        let keySet = JSONWebKeySet(keys: [JSONWebKey(publicKey: publicKey, keyID: "bench-key")])
        let validator = IDTokenValidator(issuer: "https://idp.regstate.sim", clientID: "regstate-cli",
                                         allowedAlgorithms: [.rs256], crypto: crypto)
        let parsed = try JSONWebToken(compact: token)
        let floor = try BareVerify(privateKey: privateKey, message: Array(parsed.signingInput),
                                   signature: Array(parsed.signature))
        // Warm up both paths (and fill the key set's ready-key cache, as a running app has).
        for _ in 0..<200 {
            _ = try validator.validate(token, keySet: keySet, expectedNonce: nil, now: now)
            guard floor.verify() else { throw CryptoError.invalidKey("the floor does not verify") }
        }
        // The ready key alone (digest + reused EVP_PKEY_verify context): validate minus this is parsing and checks.
        let readyKey = try keySet.verificationKey(at: 0, crypto: crypto)
        for cpu in [false, true] {
            var ready: [Double] = []
            var validation: [Double] = []
            var bare: [Double] = []
            var ratios: [Double] = []
            for _ in 0..<rounds {
                // Blocks of 100 calls, alternating, so load from other processes falls on both paths alike.
                var floorTime = 0.0
                var validateTime = 0.0
                var readyTime = 0.0
                for _ in 0..<(iterations / 100) {
                    readyTime += try time(100, cpu: cpu) {
                        _ = try readyKey.verify(signature: parsed.signature, message: parsed.signingInput,
                                                algorithm: .rs256)
                    }
                    floorTime += try time(100, cpu: cpu) {
                        guard floor.verify() else { throw CryptoError.invalidKey("floor") }
                    }
                    validateTime += try time(100, cpu: cpu) {
                        _ = try validator.validate(token, keySet: keySet, expectedNonce: nil, now: now)
                    }
                }
                bare.append(floorTime / Double(iterations / 100))
                ready.append(readyTime / Double(iterations / 100))
                validation.append(validateTime / Double(iterations / 100))
                ratios.append(validateTime / floorTime)
            }
            print("ID-token validation (RS256, \(token.utf8.count)-byte token, JWKS loaded), \(rounds) rounds × "
                  + "\(iterations) calls, \(cpu ? "thread CPU time" : "wall time") per call:")
            report("  IDTokenValidator.validate (every check)", validation, unit: "µs")
            report("  floor: bare libcrypto RS256 verify", bare, unit: "µs")
            report("  of validate: the ready key's verify alone", ready, unit: "µs")
            report("  ratio validate / floor (per round)", ratios, unit: "×")
        }
    }

    /// Mean time per call of `body` over `iterations` calls, in µs: wall time, or (with `cpu`) this thread's CPU
    /// time, which leaves out the time the scheduler gives to other processes on a loaded machine.
    private static func time(_ iterations: Int, cpu: Bool, _ body: () throws -> Void) rethrows -> Double {
        let start = now(cpu: cpu)
        for _ in 0..<iterations { try body() }
        return Double(now(cpu: cpu) - start) / 1_000 / Double(iterations)
    }

    private static func now(cpu: Bool) -> UInt64 {
        guard cpu else { return DispatchTime.now().uptimeNanoseconds }
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    private static func report(_ label: String, _ samples: [Double], unit: String) {
        let sorted = samples.sorted()
        print(String(format: "%-46@ min %8.2f  median %8.2f  max %8.2f %@", label as NSString, sorted[0],
                     sorted[sorted.count / 2], sorted[sorted.count - 1], unit as NSString))
    }
}

#if canImport(CLibCrypto)
/// The floor: an `EVP_PKEY` loaded once from the public key's DER, then a fresh digest-verify per call.
final class BareVerify {
    private let key: OpaquePointer
    private let message: [UInt8]
    private let signature: [UInt8]

    init(privateKey: RSAPrivateKey, message: [UInt8], signature: [UInt8]) throws {
        let der = Array(privateKey.pkcs1DER)
        let loaded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PrivateKey(EVP_PKEY_RSA, nil, &cursor, buffer.count)
        }
        guard let loaded else { throw CryptoError.invalidKey("floor key") }
        defer { EVP_PKEY_free(loaded) }
        // Keep only the public half, as a verifier holds it.
        let length = i2d_PublicKey(loaded, nil)
        var publicDER = [UInt8](repeating: 0, count: Int(max(length, 0)))
        _ = publicDER.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_PublicKey(loaded, &cursor)
        }
        let publicKey: OpaquePointer? = publicDER.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PublicKey(EVP_PKEY_RSA, nil, &cursor, buffer.count)
        }
        guard let publicKey else { throw CryptoError.invalidKey("floor public key") }
        self.key = publicKey
        self.message = message
        self.signature = signature
    }

    deinit { EVP_PKEY_free(key) }

    func verify() -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}
#else
/// Without libcrypto (Apple platforms) the floor is the provider's own per-call RSA verify.
final class BareVerify {
    private let publicKey: RSAPublicKey
    private let message: Data
    private let signature: Data

    init(privateKey: RSAPrivateKey, message: [UInt8], signature: [UInt8]) throws {
        publicKey = try SystemCrypto().publicKey(of: privateKey)
        self.message = Data(message)
        self.signature = Data(signature)
    }

    func verify() -> Bool {
        (try? SystemCrypto().verify(signature: signature, message: message, publicKey: publicKey, algorithm: .rs256))
            ?? false
    }
}
#endif
