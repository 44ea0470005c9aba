import Foundation
import RegState
import RegStateSimulator
import Testing

@Suite("Simulator: refresh rotation, expiry and revocation")
struct RefreshAndRevocationTests {
    @Test("every refresh rotates; reusing the old refresh token kills the whole family")
    func rotationAndReuse() async throws {
        let harness = try SimulatorHarness()
        let first = try await harness.signIn()
        let original = try #require(first.refreshToken)
        let renewed = try harness.tokens(from: try await harness.refresh(original))
        let rotated = try #require(renewed.refreshToken)
        #expect(rotated != original)
        #expect(renewed.accessToken != first.accessToken)
        let idToken = try JSONWebToken(compact: try #require(renewed.idToken))
        #expect(idToken.nonce == nil)
        #expect(idToken.subject == (try JSONWebToken(compact: try #require(first.idToken))).subject)

        let reuse = try await harness.refresh(original)
        #expect(reuse.status == 400)
        #expect(reuse.errorCode == "invalid_grant")
        #expect(reuse.errorDescription?.contains("reuse") == true)
        // The family is dead: the newest refresh token and its access token fail too.
        #expect(try await harness.refresh(rotated).errorCode == "invalid_grant")
        #expect(try await harness.userinfo(renewed.accessToken).status == 401)
        #expect(await harness.simulator.refreshGrantCount == 3)
    }

    @Test("an access token expires at userinfo when the clock passes its lifetime")
    func accessTokenExpiry() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn()
        harness.clock.advance(by: 3599)
        #expect(try await harness.userinfo(tokens.accessToken).status == 200)
        harness.clock.advance(by: 1)
        let expired = try await harness.userinfo(tokens.accessToken)
        #expect(expired.status == 401)
        #expect(expired.header("WWW-Authenticate")?.contains("error=\"invalid_token\"") == true)
        // The refresh token still works and gives a fresh access token.
        let renewed = try harness.tokens(from: try await harness.refresh(try #require(tokens.refreshToken)))
        #expect(try await harness.userinfo(renewed.accessToken).status == 200)
    }

    @Test("a refresh token expires after its lifetime; shortened lifetimes apply to new tokens")
    func refreshTokenExpiry() async throws {
        let harness = try SimulatorHarness()
        await harness.simulator.setRefreshTokenLifetime(600)
        await harness.simulator.setLifetimes(accessToken: 60)
        let tokens = try await harness.signIn()
        #expect(tokens.expiresIn == 60)
        harness.clock.advance(by: 601)
        let response = try await harness.refresh(try #require(tokens.refreshToken))
        #expect(response.errorCode == "invalid_grant")
    }

    @Test("refusesRefresh answers invalid_grant and is still counted")
    func refusesRefresh() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn()
        await harness.simulator.setRefusesRefresh(true)
        let refused = try await harness.refresh(try #require(tokens.refreshToken))
        #expect(refused.status == 400)
        #expect(refused.errorCode == "invalid_grant")
        #expect(await harness.simulator.refreshGrantCount == 1)
        await harness.simulator.setRefusesRefresh(false)
        #expect(try await harness.refresh(try #require(tokens.refreshToken)).status == 200)
    }

    @Test("revoking a refresh token kills its family and its access tokens")
    func revocationKillsFamily() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn()
        let renewed = try harness.tokens(from: try await harness.refresh(try #require(tokens.refreshToken)))
        let response = try await harness.revoke(try #require(renewed.refreshToken))
        #expect(response.status == 200)
        #expect(await harness.simulator.revokedTokenCount == 1)
        #expect(try await harness.refresh(try #require(renewed.refreshToken)).errorCode == "invalid_grant")
        #expect(try await harness.userinfo(renewed.accessToken).status == 401)
        // Another grant of the same user is untouched.
        let other = try await harness.signIn()
        #expect(try await harness.refresh(try #require(other.refreshToken)).status == 200)
    }

    @Test("revoking an access token; an unknown token still answers 200")
    func revokeAccessToken() async throws {
        let harness = try SimulatorHarness()
        let tokens = try await harness.signIn()
        #expect(try await harness.revoke(tokens.accessToken, hint: "access_token").status == 200)
        #expect(try await harness.userinfo(tokens.accessToken).status == 401)
        #expect(try await harness.refresh(try #require(tokens.refreshToken)).status == 200)
        #expect(try await harness.revoke("never-issued").status == 200)
        #expect(await harness.simulator.revokedTokenCount == 1)
    }

    @Test("revokeAllRefreshTokens ends every grant of the user")
    func administrativeRevocation() async throws {
        let harness = try SimulatorHarness()
        let first = try await harness.signIn()
        let second = try await harness.signIn()
        let bob = try await harness.signIn(as: "bob@example.com")
        #expect(try await harness.simulator.revokeAllRefreshTokens(for: "alice@example.com") == 2)
        #expect(try await harness.refresh(try #require(first.refreshToken)).errorCode == "invalid_grant")
        #expect(try await harness.refresh(try #require(second.refreshToken)).errorCode == "invalid_grant")
        #expect(try await harness.refresh(try #require(bob.refreshToken)).status == 200)
    }

    @Test("50 concurrent refreshes with different valid tokens all succeed and are all counted")
    func concurrentRefreshesAreCounted() async throws {
        // 50 logins of one address within one (manual) minute: the send rate limit is not what this test is about.
        var configuration = SimulatorHarness.defaultConfiguration
        configuration.maxOTPSendsPerMinute = 1_000
        let harness = try SimulatorHarness(configuration: configuration)
        var refreshTokens: [String] = []
        for _ in 0..<50 {
            let tokens = try harness.tokens(from: try await harness.otpLogin("alice@example.com"))
            refreshTokens.append(try #require(tokens.refreshToken))
        }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for token in refreshTokens {
                group.addTask { try await harness.refresh(token).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 50)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(await harness.simulator.refreshGrantCount == 50)
    }
}

extension SimulatorHarness {
    /// A passwordless login: start, read the inbox, redeem the code.
    func otpLogin(_ email: String) async throws -> HTTPResponse {
        _ = try await startPasswordless(email)
        return try await otpGrant(email, try #require(await simulator.latestCode(for: email)))
    }
}
