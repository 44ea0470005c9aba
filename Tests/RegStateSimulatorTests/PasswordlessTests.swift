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

    @Test("five wrong attempts burn the code: the fifth and every later try answer 'maximum number of attempts'")
    func tooManyAttempts() async throws {
        let harness = try SimulatorHarness()
        _ = try await harness.startPasswordless("alice@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "alice@example.com"))
        let wrongCode = code == "000000" ? "111111" : "000000"
        let maximum = "You've reached the maximum number of attempts. Please try to login again."
        for attempt in 1...5 {
            let answer = try await harness.otpGrant("alice@example.com", wrongCode)
            #expect(answer.status == 403)
            #expect(answer.errorDescription == (attempt < 5 ? "Wrong email or verification code." : maximum))
        }
        let burned = try await harness.otpGrant("alice@example.com", code)
        #expect(burned.status == 403)
        #expect(burned.errorDescription == maximum)
        _ = try await harness.startPasswordless("alice@example.com")
        let fresh = try #require(await harness.simulator.latestCode(for: "alice@example.com"))
        #expect(try await harness.otpGrant("alice@example.com", fresh).status == 200)
    }

    @Test("after a resend the old code answers 'superseded', distinct from a wrong code")
    func resendSupersedes() async throws {
        let harness = try SimulatorHarness()
        _ = try await harness.startPasswordless("alice@example.com")
        let first = try #require(await harness.simulator.latestCode(for: "alice@example.com"))
        _ = try await harness.startPasswordless("alice@example.com")
        let second = try #require(await harness.simulator.latestCode(for: "alice@example.com"))
        try #require(second != first, "the resend repeated the code (one in a million)")
        let old = try await harness.otpGrant("alice@example.com", first)
        #expect(old.status == 403)
        #expect(old.errorCode == "invalid_grant")
        #expect(old.errorDescription == "The verification code was superseded by a newer one.")
        #expect(try await harness.otpGrant("alice@example.com", second).status == 200)
    }

    @Test("more than three starts a minute answer 429 with Retry-After; a minute later a code is sent again")
    func sendRateLimit() async throws {
        let harness = try SimulatorHarness()
        for _ in 0..<3 { #expect(try await harness.startPasswordless("alice@example.com").status == 200) }
        let limited = try await harness.startPasswordless("alice@example.com")
        #expect(limited.status == 429)
        #expect(limited.errorCode == "too_many_requests")
        #expect(limited.header("Retry-After") == "60")
        #expect(await harness.simulator.inbox(for: "alice@example.com").count == 3)
        harness.clock.advance(by: 61)
        #expect(try await harness.startPasswordless("alice@example.com").status == 200)
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
