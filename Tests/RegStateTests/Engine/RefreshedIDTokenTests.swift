import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateSimulator

/// A refresh answer's ID token gets every check of registration plus OIDC Core 12.2 (same `iss` and `sub`, same
/// `nonce` when present). One that fails keeps the session, its access token, ID token and profile, and is a
/// recoverable E naming the check — the user is not logged out because the provider misbehaved once. Only the answer's
/// rotated refresh token is stored: the provider retired the one presented.
@Suite("Refreshed ID tokens are validated on renewal")
struct RefreshedIDTokenTests {
    /// The check each simulator defect fails (the `IDTokenError` case name the journal carries).
    static func expectedReason(_ defect: IDTokenDefect) -> String {
        switch defect {
        case .badSignature, .otherKey: "invalidSignature"
        case .algNone: "unsupportedAlgorithm"
        case .wrongAudience: "audienceMismatch"
        case .wrongIssuer: "issuerMismatch"
        case .expired: "expired"
        case .wrongNonce: "nonceMismatch"
        case .wrongAuthorizedParty: "authorizedPartyMismatch"
        case .otherSubject: "refreshedIdentityMismatch"
        case .duplicateHeaderAlgorithm, .duplicateClaim: "invalidJWT"
        case .longSubject: "invalidSubject"
        case .untrustedAudience: "untrustedAudience"
        }
    }

    @Test("a defective refreshed ID token: recoverable E, only the rotated refresh token kept, the session goes on",
          arguments: IDTokenDefect.allCases)
    func defectiveRefreshedIDToken(_ defect: IDTokenDefect) async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let before = try Self.record(harness)
        let profile = await service.state.session?.profile
        harness.clock.advance(by: 7200)
        await harness.simulator.setIDTokenDefect(defect)
        let failure = RenewalFailure.invalidRefreshedIDToken(reason: Self.expectedReason(defect))
        #expect(failure.isRecoverable)
        await #expect(throws: RegStateServiceError.renewal(failure)) { try await service.validAccessToken().token }
        let state = await service.state
        #expect(state.session != nil, "the session is kept, got \(state)")
        #expect(state.session?.profile == profile)
        var after = try Self.record(harness)
        #expect(after["refresh_token"] != before["refresh_token"], "the rotated refresh token is kept")
        for rotated in ["refresh_token", "refresh_expires_at"] { after[rotated] = before[rotated] }
        #expect(after == before, "nothing else of the answer is stored")
        let journaled = try await service.journalEntries().map(\.event)
        #expect(journaled.contains { if case .renewalFailed(failure, _) = $0 { true } else { false } })
        #expect(!journaled.contains { $0 == .loggedOut || $0 == .credentialsCleared })
        // The provider retired the refresh token it rotated from: the session goes on with the new one.
        await harness.simulator.setIDTokenDefect(nil)
        harness.clock.advance(by: 7200)
        _ = try await service.validAccessToken().token
        #expect(await service.state.letter == "C")
        #expect(await service.state.session?.profile == profile)
    }

    @Test("while the issuer's keys are out of reach, a renewal presents no refresh token: offline, nothing spent; with them back, one grant")
    func keysOutOfReach() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let before = try Self.record(harness)
        // A relaunch has no key set cached; the key set's URL now answers elsewhere.
        let jwks = try #require(URL(string: "https://idp.regstate.sim/.well-known/jwks.json"))
        await harness.simulator.setRedirects([SimulatorRedirect(from: jwks, to: try #require(URL(string: "https://elsewhere.example/keys")))])
        let service = harness.launch()
        await service.start()
        harness.clock.advance(by: 7200)
        await harness.simulator.resetCounters()
        for _ in 0..<3 {
            await #expect(throws: RegStateServiceError.self) { try await service.validAccessToken().token }
        }
        let log = await harness.simulator.requestLog
        #expect(log.contains { $0.hasPrefix("GET /.well-known/jwks.json") }, "the keys were asked for: \(log)")
        #expect(!log.contains { $0.hasPrefix("POST /oauth/token") }, "no grant while its answer could not be checked: \(log)")
        #expect(try Self.record(harness)["refresh_token"] == before["refresh_token"], "the refresh token was not spent")
        let state = await service.state
        #expect(state.session != nil, "the session is kept, got \(state)")
        await harness.simulator.setRedirects([])
        // Past the backoff the failure stored (1 s ± 20 %): before it, a call answers offline without asking.
        harness.clock.advance(by: 2)
        _ = try await service.validAccessToken().token
        #expect(await harness.simulator.requestLog.filter { $0.hasPrefix("POST /oauth/token") }.count == 1)
        #expect(await service.state.letter == "C")
    }

    @Test("a rotated signing key while the key set is out of reach: with the old keys cached, a renewal presents no refresh token (nothing spent unchecked); with the key set back, one grant checked against the new key")
    func rotationDuringKeySetOutage() async throws {
        let harness = try EngineHarness()
        // The service that registered has the provider's key set cached.
        let service = try await harness.registeredService()
        let before = try Self.record(harness)
        _ = try await harness.simulator.rotateSigningKey(keepingOld: false)
        let jwks = try #require(URL(string: "https://idp.regstate.sim/.well-known/jwks.json"))
        await harness.simulator.setRedirects([SimulatorRedirect(from: jwks, to: try #require(URL(string: "https://elsewhere.example/keys")))])
        harness.clock.advance(by: 7200)
        await harness.simulator.resetCounters()
        for _ in 0..<3 {
            await #expect(throws: RegStateServiceError.self) { try await service.validAccessToken().token }
        }
        let log = await harness.simulator.requestLog
        #expect(!log.contains { $0.hasPrefix("POST /oauth/token") }, "no grant whose answer could not be checked: \(log)")
        #expect(try Self.record(harness)["refresh_token"] == before["refresh_token"], "the refresh token was not spent")
        #expect(await service.state.session != nil, "the session is kept")
        await harness.simulator.setRedirects([])
        // The key set out of reach was a transient failure: its backoff (at most 300 s) holds the next attempt.
        harness.clock.advance(by: 301)
        _ = try await service.validAccessToken().token
        #expect(await harness.simulator.requestLog.filter { $0.hasPrefix("POST /oauth/token") }.count == 1)
        #expect(await service.state.letter == "C")
    }

    /// The stored credentials record's fields.
    static func record(_ harness: EngineHarness) throws -> [String: JSONValue] {
        let data = try #require(try harness.store.data(forKey: TokenService.credentialsKey))
        return try #require(try JSONValue.parse(data).objectValue)
    }

    @Test("an honest refreshed ID token is accepted and stored (the check above can fail)")
    func honestRefreshedIDToken() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let before = try #require(try harness.store.data(forKey: TokenService.credentialsKey))
        harness.clock.advance(by: 7200)
        _ = try await service.validAccessToken().token
        #expect(await service.state.letter == "C")
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) != before)
    }
}
