import Foundation
import Testing
@testable import RegState
import RegStateOngoingAccess
import RegStateTesting
import RegStateSimulator

@Suite("ID token validation through the client")
struct OIDCIDTokenTests {
    static let crypto = SystemCrypto()
    static let key = try! crypto.generateRSAPrivateKey(bits: 2048)
    static let publicKey = try! crypto.publicKey(of: key)

    let clock = ManualClock()

    func idToken(kid: String = "k2", claims changes: [String: JSONValue] = [:]) throws -> String {
        var claims: [String: JSONValue] = [
            "iss": "https://idp.test", "aud": "client-1", "sub": "u-42", "nonce": "n-1",
            "iat": .number(clock.now().timeIntervalSince1970), "exp": .number(clock.now().timeIntervalSince1970 + 600),
            "email": "ada@example.com", "email_verified": true, "preferred_username": "ada",
            "picture": "https://img.test/ada.png",
        ]
        claims.merge(changes) { _, new in new }
        return try JSONWebToken.sign(claims: claims, keyID: kid, privateKey: Self.key, algorithm: .rs256,
                                     crypto: Self.crypto)
    }

    /// A provider whose JWKS answers the successive sets in `sets` (the last one repeats).
    func provider(keySets sets: [[String]]) -> OIDCCannedTransport {
        let served = LockedValue(0)
        return OIDCFixtures.provider { request in
            guard request.url.path == "/.well-known/jwks.json" else { return nil }
            let index = served.withLock { count -> Int in
                defer { count += 1 }
                return min(count, sets.count - 1)
            }
            let keys = sets[index].map { JSONWebKey(publicKey: Self.publicKey, keyID: $0) }
            return HTTPResponse(status: 200, body: (try? JSONEncoder().encode(JSONWebKeySet(keys: keys))) ?? Data())
        }
    }

    @Test("A valid token gives its profile; name falls back to preferred_username; the JWKS is cached")
    func valid() async throws {
        let transport = provider(keySets: [["k2"]])
        let client = OIDCFixtures.client(transport, clock: clock)
        let verified = try await client.validateIDToken(try idToken(), expectedNonce: "n-1")
        #expect(verified.profile == Profile(subject: "u-42", issuer: "https://idp.test", email: "ada@example.com",
                                            emailVerified: true, name: "ada", picture: "https://img.test/ada.png"))
        #expect(verified.token.subject == "u-42")
        _ = try await client.validateIDToken(try idToken(claims: ["name": "Ada Lovelace"]), expectedNonce: nil)
        #expect(transport.requests(to: "/.well-known/jwks.json").count == 1)
        #expect(!verified.description.contains(verified.token.compactSerialization))
    }

    @Test("An unknown kid refetches the JWKS once and succeeds with the rotated key")
    func rotatedKey() async throws {
        let transport = provider(keySets: [["k1"], ["k1", "k2"]])
        let client = OIDCFixtures.client(transport, clock: clock)
        let verified = try await client.validateIDToken(try idToken(kid: "k2"), expectedNonce: "n-1")
        #expect(verified.profile.subject == "u-42")
        #expect(transport.requests(to: "/.well-known/jwks.json").count == 2)
    }

    @Test("A kid still unknown after one refetch fails without a third fetch")
    func unknownKey() async throws {
        let transport = provider(keySets: [["k1"]])
        let client = OIDCFixtures.client(transport, clock: clock)
        await #expect(throws: OIDCError.invalidIDToken(.unknownKeyID("k9"))) {
            try await client.validateIDToken(try idToken(kid: "k9"), expectedNonce: "n-1")
        }
        #expect(transport.requests(to: "/.well-known/jwks.json").count == 2)
    }

    @Test("Validation failures map to invalidIDToken", arguments: [
        ("nonce", OIDCError.invalidIDToken(.nonceMismatch)),
        ("audience", OIDCError.invalidIDToken(.audienceMismatch)),
        ("expired", OIDCError.invalidIDToken(.expired(at: Date(timeIntervalSince1970: 1_800_000_000 - 120)))),
    ])
    func failures(_ check: String, _ expected: OIDCError) async throws {
        let client = OIDCFixtures.client(provider(keySets: [["k2"]]), clock: clock)
        let token: String = switch check {
        case "audience": try idToken(claims: ["aud": "someone-else"])
        case "expired": try idToken(claims: ["exp": .number(clock.now().timeIntervalSince1970 - 120)])
        default: try idToken()
        }
        await #expect(throws: expected) {
            try await client.validateIDToken(token, expectedNonce: check == "nonce" ? "other" : "n-1")
        }
    }

    @Test("Profile claims: email_verified as a string, name preferred over preferred_username")
    func profileClaims() throws {
        let profile = try ProfileService().profile(fromClaims: ["sub": "s", "iss": "i", "email_verified": "true", "name": "N",
                                                                "preferred_username": "p"])
        #expect(profile == Profile(subject: "s", issuer: "i", emailVerified: true, name: "N"))
        #expect(throws: ProfileError.missingClaim("sub")) { try ProfileService().profile(fromClaims: ["iss": "i"]) }
    }
}
