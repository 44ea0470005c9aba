import Foundation
import Testing

@testable import RegState
@testable import RegStateOngoingAccess

/// Keys generated once for every crypto, JWT and ID-token suite: 2048-bit generation takes a noticeable moment.
enum CryptoTestKeys {
    static let crypto = SystemCrypto()
    // try! is acceptable in tests: a failure here is a failed test run, with the error printed.
    static let primary: RSAPrivateKey = try! crypto.generateRSAPrivateKey(bits: 2048)
    static let primaryPublic: RSAPublicKey = try! crypto.publicKey(of: primary)
    static let other: RSAPrivateKey = try! crypto.generateRSAPrivateKey(bits: 2048)
    static let otherPublic: RSAPublicKey = try! crypto.publicKey(of: other)
}

/// The RFC 7515 Appendix A.2 example: an RS256 JWS and the public half of the key that signed it.
enum RFC7515A2 {
    static let modulus =
        "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-"
        + "pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2C"
        + "apHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9g"
        + "b54h4FRWyuXpoQ"
    static let exponent = "AQAB"
    static let signingInput =
        "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0"
        + "cnVlfQ"
    static let signature =
        "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7"
        + "t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--x"
        + "i12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_Io"
        + "ypGlUPQGe77Rw"
    static var compact: String { "\(signingInput).\(signature)" }

    static var publicKey: RSAPublicKey {
        RSAPublicKey(
            modulus: Base64URL.decode(modulus) ?? Data(), exponent: Base64URL.decode(exponent) ?? Data())
    }
}

@Suite("SystemCrypto RSA")
struct CryptoRSATests {
    let crypto = SystemCrypto()

    @Test("the RFC 7515 A.2 RS256 example verifies with its published key")
    func rfc7515Verifies() throws {
        let signature = try #require(Base64URL.decode(RFC7515A2.signature))
        #expect(RFC7515A2.publicKey.bitCount == 2048)
        #expect(
            try crypto.verify(
                signature: signature, message: Data(RFC7515A2.signingInput.utf8), publicKey: RFC7515A2.publicKey,
                algorithm: .rs256))
    }

    @Test("the RFC 7515 A.2 example fails when one byte changes", arguments: ["payload", "signature", "truncated"])
    func rfc7515Tampered(change: String) throws {
        var signature = try #require(Base64URL.decode(RFC7515A2.signature))
        var message = Data(RFC7515A2.signingInput.utf8)
        switch change {
        case "payload": message[message.count - 3] ^= 0x01
        case "signature": signature[10] ^= 0x01
        default: signature.removeLast()
        }
        #expect(
            try !crypto.verify(
                signature: signature, message: message, publicKey: RFC7515A2.publicKey, algorithm: .rs256))
    }

    @Test("the RFC 7515 A.2 RS256 signature does not verify as PS256")
    func rfc7515WrongAlgorithm() throws {
        let signature = try #require(Base64URL.decode(RFC7515A2.signature))
        #expect(
            try !crypto.verify(
                signature: signature, message: Data(RFC7515A2.signingInput.utf8), publicKey: RFC7515A2.publicKey,
                algorithm: .ps256))
    }

    @Test("generated keys are 2048-bit with exponent 65537")
    func generatedKeyShape() {
        #expect(CryptoTestKeys.primaryPublic.bitCount == 2048)
        #expect(CryptoTestKeys.primaryPublic.exponent == Data([0x01, 0x00, 0x01]))
        #expect(CryptoTestKeys.primaryPublic != CryptoTestKeys.otherPublic)
    }

    @Test("sign then verify round-trips", arguments: SignatureAlgorithm.allCases.filter(\.isRSA))
    func roundTrip(algorithm: SignatureAlgorithm) throws {
        let message = Data("the ongoing-access request".utf8)
        let signature = try crypto.sign(message: message, privateKey: CryptoTestKeys.primary, algorithm: algorithm)
        #expect(signature.count == 256)
        #expect(
            try crypto.verify(
                signature: signature, message: message, publicKey: CryptoTestKeys.primaryPublic,
                algorithm: algorithm))

        var tamperedMessage = message
        tamperedMessage[0] ^= 0x20
        #expect(
            try !crypto.verify(
                signature: signature, message: tamperedMessage, publicKey: CryptoTestKeys.primaryPublic,
                algorithm: algorithm))

        var tamperedSignature = signature
        tamperedSignature[signature.count / 2] ^= 0x01
        #expect(
            try !crypto.verify(
                signature: tamperedSignature, message: message, publicKey: CryptoTestKeys.primaryPublic,
                algorithm: algorithm))

        #expect(
            try !crypto.verify(
                signature: signature, message: message, publicKey: CryptoTestKeys.otherPublic,
                algorithm: algorithm))
    }

    @Test("a signature only verifies under the algorithm that made it", arguments: SignatureAlgorithm.allCases.filter(\.isRSA))
    func algorithmsAreDistinct(algorithm: SignatureAlgorithm) throws {
        let message = Data("message".utf8)
        let signature = try crypto.sign(message: message, privateKey: CryptoTestKeys.primary, algorithm: algorithm)
        for other in SignatureAlgorithm.allCases.filter(\.isRSA) where other != algorithm {
            #expect(
                try !crypto.verify(
                    signature: signature, message: message, publicKey: CryptoTestKeys.primaryPublic,
                    algorithm: other))
        }
    }

    @Test("RS256 is deterministic, PSS is salted")
    func determinism() throws {
        let message = Data("same message".utf8)
        let key = CryptoTestKeys.primary
        #expect(
            try crypto.sign(message: message, privateKey: key, algorithm: .rs256)
                == crypto.sign(message: message, privateKey: key, algorithm: .rs256))
        #expect(
            try crypto.sign(message: message, privateKey: key, algorithm: .ps512)
                != crypto.sign(message: message, privateKey: key, algorithm: .ps512))
    }

    @Test("an empty message signs and verifies")
    func emptyMessage() throws {
        let signature = try crypto.sign(message: Data(), privateKey: CryptoTestKeys.primary, algorithm: .ps256)
        #expect(
            try crypto.verify(
                signature: signature, message: Data(), publicKey: CryptoTestKeys.primaryPublic, algorithm: .ps256))
        #expect(
            try !crypto.verify(
                signature: Data(), message: Data(), publicKey: CryptoTestKeys.primaryPublic, algorithm: .ps256))
    }

    @Test("private key DER round-trips and is PKCS #1")
    func privateKeyRoundTrip() throws {
        let der = CryptoTestKeys.primary.pkcs1DER
        let reloaded = RSAPrivateKey(pkcs1DER: Data(der))
        #expect(try crypto.publicKey(of: reloaded) == CryptoTestKeys.primaryPublic)
        let signature = try crypto.sign(message: Data("x".utf8), privateKey: reloaded, algorithm: .rs256)
        #expect(
            try crypto.verify(
                signature: signature, message: Data("x".utf8), publicKey: CryptoTestKeys.primaryPublic,
                algorithm: .rs256))

        // PKCS #1 RSAPrivateKey: SEQUENCE { INTEGER 0 (version), INTEGER n, INTEGER e, ... }.
        var outer = DER.Reader(Array(der))
        let body = outer.element(tag: 0x30)
        var fields = DER.Reader(body ?? [])
        let version = fields.element(tag: 0x02)
        let modulus = fields.element(tag: 0x02).map { Data($0.drop { $0 == 0 }) }
        let exponent = fields.element(tag: 0x02).map { Data($0) }
        #expect(body != nil)
        #expect(version == [0])
        #expect(modulus == CryptoTestKeys.primaryPublic.modulus)
        #expect(exponent == CryptoTestKeys.primaryPublic.exponent)
    }

    @Test("the description of a private key is redacted")
    func privateKeyRedacted() {
        #expect(String(describing: CryptoTestKeys.primary) == "RSAPrivateKey(redacted)")
    }

    @Test(
        "malformed private keys throw invalidKey",
        arguments: [Data(), Data("not a key".utf8), Data([0x30, 0x03, 0x02, 0x01, 0x00])])
    func malformedPrivateKey(der: Data) {
        let key = RSAPrivateKey(pkcs1DER: der)
        #expect(throws: CryptoError.self) { try crypto.publicKey(of: key) }
        #expect(performing: { try crypto.sign(message: Data(), privateKey: key, algorithm: .rs256) },
            throws: { error in
                if case CryptoError.invalidKey = error { return true }
                return false
            })
    }

    @Test("malformed or short public keys throw invalidKey")
    func malformedPublicKey() throws {
        let short = RSAPublicKey(modulus: Data(repeating: 0xC1, count: 128), exponent: Data([1, 0, 1]))
        let empty = RSAPublicKey(modulus: Data(), exponent: Data([1, 0, 1]))
        let noExponent = RSAPublicKey(modulus: CryptoTestKeys.primaryPublic.modulus, exponent: Data())
        for key in [short, empty, noExponent] {
            #expect(performing: {
                try crypto.verify(signature: Data([1]), message: Data(), publicKey: key, algorithm: .rs256)
            }, throws: { error in
                if case CryptoError.invalidKey = error { return true }
                return false
            })
        }
    }

    @Test("key generation refuses sizes below 2048 bits", arguments: [0, 512, 1024, 2047, 100_000])
    func keyGenerationBounds(bits: Int) {
        #expect(performing: { try crypto.generateRSAPrivateKey(bits: bits) }, throws: { error in
            if case CryptoError.keyGenerationFailed = error { return true }
            return false
        })
    }

    @Test("DER encodes and parses RSA public keys, rejecting malformed input")
    func derRoundTrip() throws {
        let key = CryptoTestKeys.primaryPublic
        let der = DER.rsaPublicKey(modulus: key.modulus, exponent: key.exponent)
        #expect(RSAKeyDER.publicKey(der) == key)
        #expect(RSAKeyDER.publicKey(der.dropLast()) == nil)
        #expect(RSAKeyDER.publicKey(der + Data([0])) == nil)
        #expect(RSAKeyDER.publicKey(Data()) == nil)
        // A negative INTEGER is not a modulus.
        #expect(RSAKeyDER.publicKey(Data([0x30, 0x06, 0x02, 0x01, 0x80, 0x02, 0x01, 0x03])) == nil)
        // A high-bit modulus gets a leading zero so it stays positive.
        #expect(DER.integer(unsigned: Data([0x80])) == Data([0x02, 0x02, 0x00, 0x80]))
        #expect(DER.integer(unsigned: Data()) == Data([0x02, 0x01, 0x00]))
    }
}
