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
        let first = try PKCE.randomToken(crypto: crypto)
        let second = try PKCE.randomToken(crypto: crypto)
        #expect(first.count == 43)
        #expect(Base64URL.decode(first)?.count == 32)
        #expect(first.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(first != second)
    }

    @Test("A failing random generator is reported, not papered over")
    func randomFailure() {
        #expect(throws: CryptoError.randomFailed) { try PKCE.randomToken(crypto: ForwardingCrypto(failsRandom: true)) }
    }
}
