import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

/// Issue 20: passwordless gives second tries. A wrong code keeps the attempt, a resend supersedes the old code, the
/// tries are bounded, and each way a code can fail is its own typed reason; the code never reaches the journal or
/// the logs.
@Suite("Passwordless second tries")
struct PasswordlessRetryTests {
    private func service(_ harness: EngineHarness, maxCodeAttempts: Int = 5) -> RegStateService {
        var configuration = harness.configuration
        configuration.maxCodeAttempts = maxCodeAttempts
        return RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport, clock: harness.clock,
            logger: harness.logger))
    }

    private func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

    @Test("a wrong code is F wrongCode and keeps the attempt: the right code then reaches G; no code in the journal or logs")
    func wrongThenRight() async throws {
        let harness = try EngineHarness()
        let service = service(harness)
        await service.start()
        var tape = await EventTape(service)
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        await #expect(throws: RegStateServiceError.registration(.wrongCode)) {
            try await service.completePasswordlessRegistration(code: wrong(code))
        }
        #expect(await service.state == .authenticating(.passwordless(email: "dave@example.com")))
        #expect(try await service.completePasswordlessRegistration(code: code).email == "dave@example.com")
        #expect(await tape.next(3) == ["Registration Required D", "Error F", "Awaiting Confirmation G"])
        let journal = try await service.journalEntries().map { String(decoding: try $0.encoded(), as: UTF8.self) }
        #expect(!journal.isEmpty)
        // A code standing alone, not the digits of a time (`"at":1800000000` holds `000000`).
        #expect(!journal.contains { $0.split { !$0.isNumber }.contains { $0 == code || $0 == wrong(code) } })
        #expect(!harness.logger.messages().contains { $0.contains(code) || $0.contains(wrong(code)) })
    }

    @Test("a resend supersedes the old code: the old one is F codeSuperseded (the attempt goes on), the new one reaches G")
    func resendSupersedes() async throws {
        let harness = try EngineHarness()
        let service = service(harness)
        await service.start()
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        let first = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        try await service.resendPasswordlessCode()
        let second = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        try #require(first != second, "the resend repeated the code (one in a million)")
        await #expect(throws: RegStateServiceError.registration(.codeSuperseded)) {
            try await service.completePasswordlessRegistration(code: first)
        }
        #expect(await service.state == .authenticating(.passwordless(email: "dave@example.com")))
        #expect(try await service.completePasswordlessRegistration(code: second).email == "dave@example.com")
    }

    @Test("after maxCodeAttempts wrong codes the attempt ends in F tooManyAttempts; the right code then finds nothing pending")
    func boundedTries() async throws {
        let harness = try EngineHarness()
        let service = service(harness, maxCodeAttempts: 3)
        await service.start()
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        for _ in 1...2 {
            await #expect(throws: RegStateServiceError.registration(.wrongCode)) {
                try await service.completePasswordlessRegistration(code: wrong(code))
            }
        }
        await #expect(throws: RegStateServiceError.registration(.tooManyAttempts)) {
            try await service.completePasswordlessRegistration(code: wrong(code))
        }
        #expect(await service.state == .failed(.registration(.tooManyAttempts)))
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) {
            try await service.completePasswordlessRegistration(code: code)
        }
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) { try await service.resendPasswordlessCode() }
    }

    @Test("the provider's own bound (it burns the code) is F tooManyAttempts too")
    func providerBurnsTheCode() async throws {
        let harness = try EngineHarness { $0.maxOTPAttempts = 2 }
        let service = service(harness)
        await service.start()
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        await #expect(throws: RegStateServiceError.registration(.wrongCode)) {
            try await service.completePasswordlessRegistration(code: wrong(code))
        }
        await #expect(throws: RegStateServiceError.registration(.tooManyAttempts)) {
            try await service.completePasswordlessRegistration(code: wrong(code))
        }
        #expect(await service.state == .failed(.registration(.tooManyAttempts)))
    }

    @Test("an expired code is F codeExpired and keeps the attempt: a resend then completes")
    func expiredThenResend() async throws {
        let harness = try EngineHarness()
        let service = service(harness)
        await service.start()
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        let stale = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        harness.clock.advance(by: 301)
        await #expect(throws: RegStateServiceError.registration(.codeExpired)) {
            try await service.completePasswordlessRegistration(code: stale)
        }
        try await service.resendPasswordlessCode()
        let fresh = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        #expect(try await service.completePasswordlessRegistration(code: fresh).email == "dave@example.com")
    }

    @Test("too many resends are F rateLimited with the provider's Retry-After; the attempt and the last code stay usable")
    func rateLimitedResend() async throws {
        let harness = try EngineHarness()
        let service = service(harness)
        await service.start()
        try await service.beginPasswordlessRegistration(email: "dave@example.com")
        try await service.resendPasswordlessCode()
        try await service.resendPasswordlessCode()
        let last = try #require(await harness.simulator.latestCode(for: "dave@example.com"))
        await #expect(throws: RegStateServiceError.registration(.rateLimited(retryAfter: 60))) {
            try await service.resendPasswordlessCode()
        }
        #expect(await service.state == .authenticating(.passwordless(email: "dave@example.com")))
        #expect(try await service.completePasswordlessRegistration(code: last).email == "dave@example.com")
    }

    @Test("a provider without passwordless (the start endpoint is 404) is F passwordlessNotOffered, not an HTTP status")
    func passwordlessNotOffered() async throws {
        let harness = try EngineHarness()
        var configuration = harness.configuration
        configuration.oidc.passwordlessStartURL = harness.world.providerURL("/no-such-endpoint")
        let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: harness.simulator.transport, clock: harness.clock))
        await service.start()
        await #expect(throws: RegStateServiceError.registration(.grantNotOffered(.passwordless))) {
            try await service.beginPasswordlessRegistration(email: "dave@example.com")
        }
        #expect(RegStateError.registration(.grantNotOffered(.passwordless)).reasonCode == "passwordless_not_offered")
        #expect(await service.state == .failed(.registration(.grantNotOffered(.passwordless))))
    }
}
