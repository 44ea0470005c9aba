#if canImport(CLibCrypto)
import CLibCrypto
#endif
import Foundation
import RegState

/// A DPoP proof's cost (RFC 9449 §4.2: claims, jti, ath, ES256 r||s signature) as a ratio to a bare libcrypto ES256
/// sign of a same-sized message with a preloaded key, measured in the same run (the target: ≤ 1.3×).
enum DPoPProofBenchmark {
    static func run(rounds: Int = 9, iterations: Int = 1_000) throws {
        let crypto = SystemCrypto()
        let signer = DPoPProofSigner(key: try DPoPKey.generate(crypto: crypto), crypto: crypto)
        let url = URL(string: "https://api.regstate.sim/v1/userinfo?x=1") ?? URL(fileURLWithPath: "/")
        let token = String(repeating: "a", count: 800)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let sample = try signer.proof(method: "GET", url: url, accessToken: token, nonce: "n-1", now: now)
        let message = Array(sample.utf8.prefix(through: sample.utf8.lastIndex(of: UInt8(ascii: ".")) ?? sample.utf8.startIndex))
        #if canImport(CLibCrypto)
        let floor = try BareES256Sign(message: message)
        #endif
        for _ in 0..<100 { _ = try signer.proof(method: "GET", url: url, accessToken: token, nonce: "n-1", now: now) }
        for cpu in [false, true] {
            var proofs: [Double] = [], bare: [Double] = [], ratios: [Double] = []
            for _ in 0..<rounds {
                var proofTime = 0.0, floorTime = 0.0
                for _ in 0..<(iterations / 50) {
                    #if canImport(CLibCrypto)
                    floorTime += try time(50, cpu: cpu) { guard floor.sign() else { throw CryptoError.signingFailed("floor") } }
                    #endif
                    proofTime += try time(50, cpu: cpu) {
                        _ = try signer.proof(method: "GET", url: url, accessToken: token, nonce: "n-1", now: now)
                    }
                }
                proofs.append(proofTime / Double(iterations / 50))
                bare.append(floorTime / Double(iterations / 50))
                ratios.append(floorTime > 0 ? proofTime / floorTime : 0)
            }
            print("DPoP proof (ES256, ath + nonce, \(sample.utf8.count)-byte proof), \(rounds) rounds × \(iterations) "
                  + "calls, \(cpu ? "thread CPU time" : "wall time") per call:")
            report("  DPoPProofSigner.proof", proofs, unit: "µs")
            report("  floor: bare libcrypto ES256 sign", bare, unit: "µs")
            report("  ratio proof / floor (per round)", ratios, unit: "×")
        }
    }

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
/// The floor: a P-256 key generated once as an `EVP_PKEY`, then per call `EVP_DigestSignInit` + `EVP_DigestSign`.
final class BareES256Sign {
    private let key: OpaquePointer
    private let message: [UInt8]

    init(message: [UInt8]) throws {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw CryptoError.keyGenerationFailed("ctx") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
              EVP_PKEY_keygen(context, &key) == 1, let key
        else { throw CryptoError.keyGenerationFailed("floor key") }
        self.key = key
        self.message = message
    }

    deinit { EVP_PKEY_free(key) }

    func sign() -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        var signature = [UInt8](repeating: 0, count: 80)
        var length = signature.count
        return EVP_DigestSign(context, &signature, &length, message, message.count) == 1
    }
}
#endif
