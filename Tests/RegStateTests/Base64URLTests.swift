import Foundation
import Testing

import RegState

/// Strict base64url (RFC 4648 §5 without padding, as RFC 7515 §2 requires) on bytes.
@Suite("Base64URL")
struct Base64URLTests {
    @Test("RFC 4648 §10 known answers, and the two URL-safe characters",
          arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
                      ("foobar", "Zm9vYmFy")])
    func knownAnswers(plain: String, encoded: String) {
        #expect(Base64URL.encode(Data(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Data(plain.utf8))
    }

    @Test("the URL-safe alphabet: - and _ for + and /")
    func urlSafe() {
        #expect(Base64URL.encode(Data([0xFB, 0xFF, 0xBF])) == "-_-_")
        #expect(Base64URL.decode("-_-_") == Data([0xFB, 0xFF, 0xBF]))
    }

    @Test("padding, the standard alphabet, whitespace and other bytes are refused",
          arguments: ["Zg==", "Zm8=", "+/+/", "Zm 9v", "Zm9v\n", "Zm9v.", "Zé9v"])
    func refused(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("a length of 4n+1 is refused")
    func loneCharacter() {
        #expect(Base64URL.decode("Z") == nil)
        #expect(Base64URL.decode("Zm9vY") == nil)
    }

    @Test("stray bits in the last character are refused, so each byte string has one encoding")
    func strayBits() {
        #expect(Base64URL.decode("Zg") == Data("f".utf8))
        #expect(Base64URL.decode("Zh") == nil)
        #expect(Base64URL.decode("Zm8") == Data("fo".utf8))
        #expect(Base64URL.decode("Zm9") == nil)
    }

    @Test("round-trips every length and byte value")
    func roundTrip() {
        for length in 0..<70 {
            let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test("a JWT segment with padding is not base64url")
    func paddedSegment() {
        let header = Base64URL.encode(Data(#"{"alg":"RS256"}"#.utf8))
        #expect(throws: JWTError.invalidBase64URL(.payload)) {
            try JSONWebToken(compact: "\(header).e30=.AA")
        }
    }
}
