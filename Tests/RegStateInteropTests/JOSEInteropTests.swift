import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import Testing

/// The library's JWS against an independent implementation (Python's jwcrypto): what the library signs verifies
/// there, what jwcrypto signs verifies here, for PS512 and RS256; keys cross as JWK and as PEM both ways.
extension InteropTests {
    @Suite("JOSE against jwcrypto", .kit(.django))
    struct JOSEInteropTests {
        static let crypto = SystemCrypto()

        @Test("Signatures the library makes verify in jwcrypto (public key as JWK and as PEM); a changed one does not")
        func libraryToJWCrypto() async throws {
            let key = try Self.crypto.generateRSAPrivateKey(bits: 2048)
            let publicKey = try Self.crypto.publicKey(of: key)
            var tokens: [JSONValue] = []
            for algorithm in [SignatureAlgorithm.ps512, .rs256] {
                let compact = try JSONWebToken.sign(claims: ["nonce": .string("n-\(algorithm.rawValue)"), "timestamp": 1_782_864_000_000],
                                                  keyID: "lib-1", privateKey: key, algorithm: algorithm, crypto: Self.crypto)
                var tampered = Array(compact)
                let index = try #require(compact.firstIndex(of: ".")).utf16Offset(in: compact) + 3
                tampered[index] = tampered[index] == "A" ? "B" : "A"
                tokens.append(["name": .string("\(algorithm.rawValue)-jwk"), "alg": .string(algorithm.rawValue),
                               "compact": .string(compact), "jwk": .object(publicKey.jwk())])
                tokens.append(["name": .string("\(algorithm.rawValue)-pem"), "alg": .string(algorithm.rawValue),
                               "compact": .string(compact), "pem": .string(publicKey.pemEncoded)])
                tokens.append(["name": .string("\(algorithm.rawValue)-tampered"), "alg": .string(algorithm.rawValue),
                               "compact": .string(String(tampered)), "jwk": .object(publicKey.jwk())])
            }
            let answer = try await JOSEPeer.run(["op": "verify", "tokens": .array(tokens)])
            for algorithm in ["PS512", "RS256"] {
                for form in ["jwk", "pem"] {
                    #expect(answer["\(algorithm)-\(form)"]?["valid"] == true, "\(algorithm) with a \(form) key")
                    #expect(answer["\(algorithm)-\(form)"]?["payload"]?["nonce"] == .string("n-\(algorithm)"))
                }
                #expect(answer["\(algorithm)-tampered"]?["valid"] == false)
            }
        }

        @Test("Signatures jwcrypto makes verify in the library; its keys read from JWK and PEM sign what jwcrypto verifies")
        func jwcryptoToLibrary() async throws {
            let answer = try await JOSEPeer.run(["op": "sign", "payload": ["nonce": "py-nonce", "iat": 1_782_864_000]])
            let publicJWK = try #require(answer["public_jwk"]?.objectValue)
            let fromJWK = try RSAPublicKey(jwk: publicJWK)
            let fromPEM = try RSAPublicKey(pem: try #require(answer["public_pem"]?.stringValue))
            #expect(fromJWK == fromPEM)
            #expect(fromJWK.bitCount == 2048)
            for (algorithm, name) in [(SignatureAlgorithm.ps512, "PS512"), (.rs256, "RS256")] {
                let compact = try #require(answer[name]?.stringValue)
                let keys = JSONWebKeySet(keys: [JSONWebKey(publicKey: fromPEM, keyID: "py-1", algorithm: algorithm)])
                // Each algorithm is allowed explicitly: the default accepts PS512 only.
                let verified = try JWSVerifier(keys: keys, allowedAlgorithms: [algorithm]).verify(compact)
                #expect(verified.claims["nonce"] == "py-nonce")
                // Under another key of the same size the same signature is refused.
                let stranger = try Self.crypto.publicKey(of: try Self.crypto.generateRSAPrivateKey(bits: 2048))
                let wrong = JSONWebKeySet(keys: [JSONWebKey(publicKey: stranger, keyID: "py-1", algorithm: algorithm)])
                #expect(throws: JWSRejection.invalidSignature) {
                    try JWSVerifier(keys: wrong, allowedAlgorithms: [algorithm]).verify(compact)
                }
            }

            // The private key, read from jwcrypto's PKCS #8 PEM and from its JWK, is the same key and signs for it.
            let fromPrivatePEM = try RSAPrivateKey(pem: try #require(answer["private_pem"]?.stringValue))
            let fromPrivateJWK = try RSAPrivateKey(jwk: try #require(answer["private_jwk"]?.objectValue))
            #expect(try Self.crypto.publicKey(of: fromPrivatePEM) == fromJWK)
            #expect(try Self.crypto.publicKey(of: fromPrivateJWK) == fromJWK)
            let back = try JSONWebToken.sign(claims: ["nonce": "round-trip"], keyID: "py-1", privateKey: fromPrivateJWK,
                                           algorithm: .ps512, crypto: Self.crypto)
            let check = try await JOSEPeer.run(["op": "verify", "tokens": [
                ["name": "back", "alg": "PS512", "compact": .string(back), "jwk": .object(publicJWK)],
            ]])
            #expect(check["back"]?["valid"] == true)
        }
    }
}
