import Foundation
import Testing

@testable import RegState

/// SHA-256, HMAC-SHA-256 and random bytes from ``SystemCrypto`` against published vectors.
@Suite("SystemCrypto digests and randomness")
struct CryptoDigestTests {
    let crypto = SystemCrypto()

    struct DigestVector: Sendable, CustomTestStringConvertible {
        let name: String
        let message: Data
        let expectedHex: String
        var testDescription: String { name }
    }

    static let sha256Vectors: [DigestVector] = [
        // FIPS 180-2 Appendix B.1 and B.2, and the empty message.
        DigestVector(
            name: "abc", message: Data("abc".utf8),
            expectedHex: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        DigestVector(
            name: "two blocks", message: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            expectedHex: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        DigestVector(
            name: "empty", message: Data(),
            expectedHex: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ]

    @Test("SHA-256 matches FIPS 180 vectors", arguments: sha256Vectors)
    func sha256(vector: DigestVector) {
        #expect(cryptoTestHex(crypto.sha256(vector.message)) == vector.expectedHex)
    }

    struct HMACVector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: Data
        let message: Data
        let expectedHex: String
        var testDescription: String { name }
    }

    static let hmacVectors: [HMACVector] = [
        // RFC 4231 test cases 1, 2 and 6 (HMAC-SHA-256).
        HMACVector(
            name: "RFC 4231 case 1", key: Data(repeating: 0x0b, count: 20), message: Data("Hi There".utf8),
            expectedHex: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        HMACVector(
            name: "RFC 4231 case 2", key: Data("Jefe".utf8), message: Data("what do ya want for nothing?".utf8),
            expectedHex: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        HMACVector(
            name: "RFC 4231 case 6", key: Data(repeating: 0xaa, count: 131),
            message: Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            expectedHex: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        HMACVector(
            name: "empty key and message", key: Data(), message: Data(),
            expectedHex: "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"),
    ]

    @Test("HMAC-SHA-256 matches RFC 4231 vectors", arguments: hmacVectors)
    func hmac(vector: HMACVector) {
        #expect(cryptoTestHex(crypto.hmacSHA256(key: vector.key, message: vector.message)) == vector.expectedHex)
    }

    @Test("random bytes have the requested length", arguments: [0, 1, 16, 32, 1000])
    func randomLength(count: Int) throws {
        #expect(try crypto.randomBytes(count: count).count == count)
    }

    @Test("random bytes do not repeat")
    func randomDoesNotRepeat() throws {
        var seen = Set<Data>()
        for _ in 0..<100 {
            seen.insert(try crypto.randomBytes(count: 32))
        }
        #expect(seen.count == 100)
        // Not all zero, which a generator that silently failed would give.
        #expect(seen.allSatisfy { $0.contains { $0 != 0 } })
    }

    @Test("a negative count is refused")
    func negativeCount() {
        #expect(throws: CryptoError.randomFailed) { try crypto.randomBytes(count: -1) }
    }
}

/// Lower-case hex of `data`, for comparing with published vectors.
func cryptoTestHex(_ data: Data) -> String {
    data.map { String(format: "%02x", $0) }.joined()
}
