import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import Testing

/// The provider's side of the signed requests: what it refuses, so the simulator is a fair opponent.
@Suite("OngoingAccessProvider: signed requests")
struct OngoingAccessProviderTests {
    static let url = SimulatorConfiguration.literalURL("https://ongoing.regstate.sim/v1/oauth/authorize")

    func claims(_ harness: OngoingAccessHarness, nonce: String, timestamp: Date) -> [String: JSONValue] {
        ["client_id": "regstate-ongoing-app", "nonce": .string(nonce),
         "timestamp": .number(timestamp.timeIntervalSince1970 * 1000), "response_type": "code",
         "contract_id": "contract-listening-history", "redirect_uri": "com.example.app:/ongoing-callback",
         "state": "s", "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256",
         "scope": OngoingAccessScope.all.json]
    }

    func send(_ harness: OngoingAccessHarness, _ claims: [String: JSONValue], algorithm: SignatureAlgorithm = .ps512,
              keyID: String = OngoingAccessHarness.appKeyID) async throws -> HTTPResponse {
        let jwt = try JSONWebToken.sign(claims: claims, keyID: keyID, privateKey: harness.appKey, algorithm: algorithm,
                                      crypto: SystemCrypto())
        return try await harness.provider.transport.send(.json(.post, url: Self.url, body: ["request": .string(jwt)]))
    }

    @Test("A fresh PS512 request is answered; the same nonce again is refused as a replay")
    func nonceIsSingleUse() async throws {
        let harness = try await OngoingAccessHarness()
        let request = claims(harness, nonce: "nonce-1", timestamp: harness.clock.now())
        #expect(try await send(harness, request).status == 200)
        let replay = try await send(harness, request)
        #expect(replay.status == 400)
        #expect(replay.jsonBody?["error_description"] == "missing or replayed nonce")
    }

    @Test("A stale timestamp, an RS256 signature or an unknown kid is refused")
    func refusals() async throws {
        let harness = try await OngoingAccessHarness()
        let stale = try await send(harness, claims(harness, nonce: "n-stale", timestamp: harness.clock.now().addingTimeInterval(-600)))
        #expect(stale.status == 400)
        #expect(stale.jsonBody?["error_description"] == "the timestamp is not recent")
        let rs256 = try await send(harness, claims(harness, nonce: "n-rs", timestamp: harness.clock.now()), algorithm: .rs256)
        #expect(rs256.status == 401)
        let stranger = try await send(harness, claims(harness, nonce: "n-kid", timestamp: harness.clock.now()), keyID: "other")
        #expect(stranger.status == 401)
        #expect(await harness.provider.requestLog.count == 3)
    }
}
