import Foundation
import Testing
@testable import RegState
import RegStateSimulator

@Suite("Discovery")
struct OIDCDiscoveryTests {
    static let discoveryURLs: [(String, String)] = [
        ("https://idp.test", "https://idp.test/.well-known/openid-configuration"),
        ("https://idp.test/", "https://idp.test/.well-known/openid-configuration"),
        ("http://127.0.0.1:9000/o", "http://127.0.0.1:9000/o/.well-known/openid-configuration"),
        ("http://127.0.0.1:9000/o/", "http://127.0.0.1:9000/o/.well-known/openid-configuration"),
    ]

    @Test("The discovery URL appends the well-known path to the issuer, keeping its path", arguments: discoveryURLs)
    func discoveryURL(_ issuer: String, _ expected: String) throws {
        let configuration = OIDCFixtures.configuration(issuer: try #require(URL(string: issuer)))
        #expect(configuration.discoveryURL.absoluteString == expected)
    }

    @Test("The passwordless start URL defaults to the issuer's /passwordless/start")
    func passwordlessDefault() throws {
        let configuration = OIDCFixtures.configuration(issuer: try #require(URL(string: "https://idp.test/")))
        #expect(configuration.passwordlessStartURL?.absoluteString == "https://idp.test/passwordless/start")
    }

    @Test("The document is decoded and cached after the first success")
    func cached() async throws {
        let transport = OIDCFixtures.provider()
        let client = OIDCFixtures.client(transport)
        let first = try await client.metadata()
        let second = try await client.metadata()
        #expect(first == second)
        #expect(first.tokenEndpoint.absoluteString == "https://idp.test/oauth/token")
        #expect(first.jwksURI.absoluteString == "https://idp.test/.well-known/jwks.json")
        #expect(first.requiresCallbackIssuer)
        #expect(first.codeChallengeMethodsSupported == ["S256"])
        #expect(transport.requests.count == 1)
    }

    @Test("A document for another issuer is refused, even one differing only by a trailing slash")
    func issuerMismatch() async throws {
        let client = OIDCFixtures.client(OIDCFixtures.provider(discovery: OIDCFixtures.discovery(issuer: "https://idp.test/")))
        await #expect(throws: OIDCError.issuerMismatch(expected: "https://idp.test", found: "https://idp.test/")) {
            try await client.metadata()
        }
    }

    @Test("A failure is not cached: the next call fetches again")
    func failureNotCached() async throws {
        let calls = LockedValue(0)
        let transport = OIDCCannedTransport { _ in
            let call = calls.withLock { count -> Int in
                count += 1
                return count
            }
            return call == 1 ? HTTPResponse(status: 503) : .json(200, OIDCFixtures.discovery())
        }
        let client = OIDCFixtures.client(transport)
        await #expect(throws: OIDCError.server(status: 503)) { try await client.metadata() }
        #expect(try await client.metadata().issuer == "https://idp.test")
        #expect(transport.requests.count == 2)
    }

    @Test("A document missing a required endpoint is malformed")
    func missingEndpoint() async throws {
        let client = OIDCFixtures.client(OIDCFixtures.provider(discovery: ["issuer": "https://idp.test"]))
        await #expect(throws: OIDCError.malformedResponse("the discovery document is not valid (missing authorization_endpoint)")) {
            try await client.metadata()
        }
    }
}
