import Foundation
import Testing

@testable import RegState
@testable import RegStateOngoingAccess

@Suite("RSA keys from PEM and JWK")
struct CryptoRSAKeyFormatTests {
    let crypto = SystemCrypto()

    @Test("A private key survives PEM (PKCS #1) and signs what its public PEM (SPKI) verifies")
    func pemRoundTrip() throws {
        let pem = CryptoTestKeys.primary.pemEncoded
        #expect(pem.hasPrefix("-----BEGIN RSA PRIVATE KEY-----\n"))
        #expect(pem.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        let key = try RSAPrivateKey(pem: pem)
        #expect(key == CryptoTestKeys.primary)
        let publicPEM = CryptoTestKeys.primaryPublic.pemEncoded
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let publicKey = try RSAPublicKey(pem: publicPEM)
        #expect(publicKey == CryptoTestKeys.primaryPublic)
        let signature = try crypto.sign(message: Data("m".utf8), privateKey: key, algorithm: .ps512)
        #expect(try crypto.verify(signature: signature, message: Data("m".utf8), publicKey: publicKey, algorithm: .ps512))
    }

    @Test("PKCS #8 PRIVATE KEY and PKCS #1 RSA PUBLIC KEY blocks are read too")
    func otherPEMForms() throws {
        let pkcs8 = DER.sequence(DER.integer(unsigned: Data()) + RSAKeyDER.rsaAlgorithmIdentifier
            + Data([0x04, 0x82, UInt8(CryptoTestKeys.primary.pkcs1DER.count >> 8), UInt8(CryptoTestKeys.primary.pkcs1DER.count & 0xFF)])
            + CryptoTestKeys.primary.pkcs1DER)
        let privatePEM = PEMBlock.encode(label: "PRIVATE KEY", der: pkcs8)
        #expect(try RSAPrivateKey(pem: privatePEM) == CryptoTestKeys.primary)
        let pkcs1Public = DER.rsaPublicKey(modulus: CryptoTestKeys.primaryPublic.modulus,
                                           exponent: CryptoTestKeys.primaryPublic.exponent)
        let publicPEM = PEMBlock.encode(label: "RSA PUBLIC KEY", der: pkcs1Public)
        #expect(try RSAPublicKey(pem: "leading text\n" + publicPEM) == CryptoTestKeys.primaryPublic)
    }

    @Test("Public JWK members round-trip; a private JWK needs every CRT member", arguments: ["n", "e", "d", "p", "q", "dp", "dq", "qi"])
    func jwkMembers(missing: String) throws {
        let jwk = CryptoTestKeys.primaryPublic.jwk(keyID: "k1", algorithm: .ps512)
        #expect(jwk["kid"] == "k1" && jwk["alg"] == "PS512")
        #expect(try RSAPublicKey(jwk: jwk) == CryptoTestKeys.primaryPublic)
        var privateJWK: [String: JSONValue] = jwk
        for name in ["d", "p", "q", "dp", "dq", "qi"] { privateJWK[name] = "AQAB" }
        privateJWK[missing] = nil
        #expect(throws: CryptoError.invalidKey("the JWK member \"\(missing)\" is missing or not base64url")) {
            try RSAPrivateKey(jwk: privateJWK)
        }
    }

    @Test("Unusable PEM is refused with invalidKey", arguments: [
        "no pem here",
        "-----BEGIN PUBLIC KEY-----\nAAAA\n",
        "-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----",
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nMAA=\n-----END RSA PRIVATE KEY-----",
        "-----BEGIN RSA PRIVATE KEY-----\n!!!!\n-----END RSA PRIVATE KEY-----",
        "-----BEGIN RSA PRIVATE KEY-----\nMAMCAQA=\n-----END RSA PRIVATE KEY-----",
        // An EC P-256 SubjectPublicKeyInfo: the algorithm is not rsaEncryption.
        "-----BEGIN PUBLIC KEY-----\nMBMwEQYHKoZIzj0CAQYGK4EEAAoDAgAA\n-----END PUBLIC KEY-----",
    ])
    func unusablePEM(text: String) {
        #expect(throws: CryptoError.self) { try RSAPrivateKey(pem: text) }
        #expect(throws: CryptoError.self) { try RSAPublicKey(pem: text) }
    }
}
