import Foundation
import RegState
import RegStateSimulator
import Testing

@Suite("Simulator: passwordless email")
struct PasswordlessTests {
    @Test("start delivers a six-digit code to the inbox; the OTP grant exchanges it for tokens")
    func startAndRedeem() async throws {
        let harness = try SimulatorHarness()
        let start = try await harness.startPasswordless("erin@example.com")
        #expect(start.status == 200)
        #expect(start.jsonBody?["email"] == "erin@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "erin@example.com"))
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        let tokens = try harness.tokens(from: try await harness.otpGrant("erin@example.com", code))
        #expect(tokens.refreshToken != nil)
        let idToken = try JSONWebToken(compact: try #require(tokens.idToken))
        #expect(idToken.claims["email"] == "erin@example.com")
        #expect(idToken.nonce == nil)
        #expect(idToken.audience == ["regstate-cli"])
        #expect(try await harness.userinfo(tokens.accessToken).jsonBody?["email"] == "erin@example.com")
    }

    @Test("a wrong code, an expired code and a used code give their own descriptions")
    func distinctFailures() async throws {
        let harness = try SimulatorHarness()
        _ = try await harness.startPasswordless("alice@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "alice@example.com"))
        let wrongCode = code == "000000" ? "111111" : "000000"

        let wrong = try await harness.otpGrant("alice@example.com", wrongCode)
        #expect(wrong.status == 403)
        #expect(wrong.errorCode == "invalid_grant")
        #expect(wrong.errorDescription == "Wrong email or verification code.")

        #expect(try await harness.otpGrant("alice@example.com", code).status == 200)
        let reused = try await harness.otpGrant("alice@example.com", code)
        #expect(reused.status == 403)
        #expect(reused.errorDescription == "The verification code has already been used.")

        _ = try await harness.startPasswordless("alice@example.com")
        let second = try #require(await harness.simulator.latestCode(for: "alice@example.com"))
        harness.clock.advance(by: 301)
        let expired = try await harness.otpGrant("alice@example.com", second)
        #expect(expired.status == 403)
        #expect(expired.errorCode == "invalid_grant")
        #expect(expired.errorDescription == "The verification code has expired.")
        #expect(await harness.simulator.inbox(for: "alice@example.com") == [code, second])
    }

    @Test("a new start invalidates the previous code")
    func newStartReplacesCode() async throws {
        let harness = try SimulatorHarness()
        _ = try await harness.startPasswordless("alice@example.com")
        let first = try #require(await harness.simulator.latestCode(for: "alice@example.com"))
        // Codes are random six digits: a new one may repeat the old one (one in a million), so ask a few times at most.
        var second = first
        for _ in 0..<5 where second == first {
            _ = try await harness.startPasswordless("alice@example.com")
            second = try #require(await harness.simulator.latestCode(for: "alice@example.com"))
        }
        try #require(second != first, "five new starts all repeated the first code")
        #expect(try await harness.otpGrant("alice@example.com", first).status == 403)
        #expect(try await harness.otpGrant("alice@example.com", second).status == 200)
    }

    @Test("five wrong attempts burn the code")
    func tooManyAttempts() async throws {
        let harness = try SimulatorHarness()
        _ = try await harness.startPasswordless("alice@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "alice@example.com"))
        let wrongCode = code == "000000" ? "111111" : "000000"
        for _ in 0..<5 {
            #expect(try await harness.otpGrant("alice@example.com", wrongCode).status == 403)
        }
        let burned = try await harness.otpGrant("alice@example.com", code)
        #expect(burned.status == 403)
        #expect(burned.errorDescription == "Wrong email or verification code.")
    }

    @Test("an invalid email is bad.email and sends nothing")
    func badEmail() async throws {
        let harness = try SimulatorHarness()
        let response = try await harness.startPasswordless("not an email")
        #expect(response.status == 400)
        #expect(response.errorCode == "bad.email")
        #expect(await harness.simulator.inbox(for: "not an email").isEmpty)
    }
}
