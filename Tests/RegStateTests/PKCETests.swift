import Foundation
import Testing
@testable import RegState

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    let crypto = SystemCrypto()

    /// RFC 7636 Appendix B: the 32 octets, their base64url verifier, and its S256 challenge.
    static let appendixOctets: [UInt8] = [
        116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186,
        22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ]

    @Test("RFC 7636 Appendix B: the octets encode to the verifier, whose S256 challenge is the appendix's")
    func appendixB() {
        let verifier = Base64URL.encode(Data(Self.appendixOctets))
        #expect(verifier == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(PKCE.challenge(for: verifier, crypto: crypto) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("A verifier is 43 base64url characters (32 random bytes) and differs every time")
    func verifierShape() throws {
        let first = try PKCE.makeVerifier(crypto: crypto)
        let second = try PKCE.makeVerifier(crypto: crypto)
        #expect(first.count == 43)
        #expect(Base64URL.decode(first)?.count == 32)
        #expect(first.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(first != second)
    }

    @Test("A failing random generator is reported, not papered over")
    func randomFailure() {
        #expect(throws: CryptoError.randomFailed) { try PKCE.randomToken(crypto: FailingRandomCrypto()) }
    }
}

/// SystemCrypto whose random generator fails.
private struct FailingRandomCrypto: CryptoProvider {
    let base = SystemCrypto()
    func sha256(_ data: Data) -> Data { base.sha256(data) }
    func hmacSHA256(key: Data, message: Data) -> Data { base.hmacSHA256(key: key, message: message) }
    func randomBytes(count: Int) throws(CryptoError) -> Data { throw .randomFailed }
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
}
