import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import Testing
import RegStateTestSupport

/// One bad answer: which endpoint gives it, and the typed error the app must raise.
struct BadAnswerCase: Sendable, CustomTestStringConvertible {
    let fault: OngoingAccessFault
    let endpoint: OngoingAccessEndpoint
    let expected: OngoingAccessError

    var testDescription: String { "\(fault.rawValue) on \(endpoint.rawValue)" }
}

/// Whether ``JSONValue/parse(_:)`` refuses duplicate members (the strict reading the `jose` work brings).
let jsonParsingIsStrict = (try? JSONValue.parse(Data(#"{"a":1,"a":2}"#.utf8))) == nil

@Suite("Ongoing access: every bad answer is a typed error, nothing is stored, the previous token still works")
struct OngoingAccessBadAnswerTests {
    static let cases: [BadAnswerCase] = [
        BadAnswerCase(fault: .wrongSigningKey, endpoint: .preAuthorization, expected: .answerRejected(.invalidSignature)),
        BadAnswerCase(fault: .algorithmNone, endpoint: .preAuthorization, expected: .answerRejected(.unsupportedAlgorithm("none"))),
        BadAnswerCase(fault: .algorithmHS512, endpoint: .tokenExchange, expected: .answerRejected(.unsupportedAlgorithm("HS512"))),
        BadAnswerCase(fault: .unknownKeyID, endpoint: .tokenExchange,
                      expected: .answerRejected(.unknownKeyID("not-a-provider-key"))),
        BadAnswerCase(fault: .missingKeyID, endpoint: .session, expected: .answerRejected(.missingKeyID)),
        BadAnswerCase(fault: .foreignKeySetURL, endpoint: .preAuthorization,
                      expected: .answerRejected(.foreignKeySetURL("attacker.example"))),
        BadAnswerCase(fault: .tamperedPayload, endpoint: .preAuthorization, expected: .answerRejected(.invalidSignature)),
        BadAnswerCase(fault: .truncatedSignature, endpoint: .tokenExchange,
                      expected: .answerRejected(.signatureLengthMismatch(expected: 256, found: 255))),
        BadAnswerCase(fault: .weakKey, endpoint: .session, expected: .answerRejected(.weakKey(bits: 1024))),
        BadAnswerCase(fault: .expiredPreAuthorizationCode, endpoint: .preAuthorization, expected: .preAuthorizationExpired),
        BadAnswerCase(fault: .replayedAnswer, endpoint: .preAuthorization, expected: .replayedAnswer),
        BadAnswerCase(fault: .replayedAnswer, endpoint: .tokenExchange, expected: .replayedAnswer),
        BadAnswerCase(fault: .wrongSigningKey, endpoint: .refresh, expected: .answerRejected(.invalidSignature)),
        BadAnswerCase(fault: .tamperedPayload, endpoint: .refresh, expected: .answerRejected(.invalidSignature)),
        BadAnswerCase(fault: .replayedAnswer, endpoint: .refresh, expected: .replayedAnswer),
    ]

    @Test("A bad answer is refused with its typed error; the stored token is unchanged and still restores", arguments: cases)
    func badAnswer(_ bad: BadAnswerCase) async throws {
        let harness = try await OngoingAccessHarness()
        // A consent and one refresh first, so every endpoint has a previous answer a replay can resend.
        let consented = try await harness.consentOnce()
        harness.clock.advance(by: 3600)
        let token = try await harness.service().authorizeOngoingAccess(oAuthToken: consented).oAuthToken
        if bad.endpoint == .refresh { harness.clock.advance(by: 3600) }
        let before = try harness.storedRecord()
        let requestsBefore = await harness.provider.requestLog.count
        await harness.provider.setFault(bad.fault, on: bad.endpoint)

        let service = await harness.service()
        var events = EventTape(service.events())
        // The consent-path endpoints are reached by a new consent, the others by a restore.
        let restores = bad.endpoint == .refresh || bad.endpoint == .session
        await #expect(throws: bad.expected) {
            try await service.authorizeOngoingAccess(oAuthToken: restores ? token : nil)
        }
        #expect(try harness.storedRecord() == before)
        #expect(await service.state == .idle)
        #expect(await events.take(1).last == .failed(bad.expected))
        if bad.fault == .foreignKeySetURL {
            #expect(await harness.provider.requestLog.dropFirst(requestsBefore).allSatisfy { !$0.contains("jwks") })
        }

        await harness.provider.setFault(nil, on: bad.endpoint)
        let restored = try await harness.service().authorizeOngoingAccess(oAuthToken: token)
        #expect(restored.origin == .restored)
        #expect(try await harness.service().authorizeOngoingAccess(oAuthToken: restored.oAuthToken).origin == .restored)
    }

    @Test("An allow-listed jku is fetched only for a kid the pinned keys lack, and its weak key is still refused")
    func allowListedKeySetIsFetched() async throws {
        let harness = try await OngoingAccessHarness()
        await harness.provider.setFault(.weakKey, on: .preAuthorization)
        await #expect(throws: OngoingAccessError.answerRejected(.weakKey(bits: 1024))) {
            try await harness.service().authorizeOngoingAccess()
        }
        #expect(await harness.provider.requestLog.contains("GET /v1/jwks"))
        // Without the allow-list entry, the same jku is refused and not fetched.
        let log = await harness.provider.requestLog.count
        var configuration = await harness.provider.appConfiguration(appKeyID: OngoingAccessHarness.appKeyID)
        configuration.allowedKeySetURLs = []
        let strict = OngoingAccessService(configuration: configuration, dependencies: OngoingAccessDependencies(
            appPrivateKey: harness.appKey, consent: harness.consent, transport: harness.provider.transport,
            clock: harness.clock))
        await #expect(throws: OngoingAccessError.answerRejected(.foreignKeySetURL("ongoing.regstate.sim"))) {
            try await strict.authorizeOngoingAccess()
        }
        #expect(await harness.provider.requestLog.dropFirst(log) == ["POST /v1/oauth/authorize"])
    }

    @Test("A payload with a duplicate member is refused", .enabled(if: jsonParsingIsStrict,
          "JSONValue.parse refuses duplicate members once the strict reading (the jose branch) is merged"))
    func duplicateMembers() async throws {
        let harness = try await OngoingAccessHarness()
        await harness.provider.setFault(.duplicateMembers, on: .preAuthorization)
        await #expect(throws: OngoingAccessError.answerRejected(
            .malformed("The JWS payload is not valid JSON: The JSON object names \"nonce\" twice."))) {
            try await harness.service().authorizeOngoingAccess()
        }
        #expect(try harness.storedRecord() == nil)
    }

    @Test("A request signed by a key the provider does not know is refused by the provider")
    func unknownAppKey() async throws {
        let harness = try await OngoingAccessHarness()
        var configuration = await harness.provider.appConfiguration(appKeyID: "someone-else")
        configuration.autoRecoverExpiredCredentials = false
        let stranger = OngoingAccessService(configuration: configuration, dependencies: OngoingAccessDependencies(
            appPrivateKey: harness.appKey, consent: harness.consent, transport: harness.provider.transport,
            clock: harness.clock))
        await #expect(throws: OngoingAccessError.providerRefused(status: 401, error: "invalid_client")) {
            try await stranger.authorizeOngoingAccess()
        }
    }
}

@Suite("Ongoing access: no refresh grant is spent on an answer that could not be checked")
struct OngoingAccessKeyPreCheckTests {
    @Test("A provider that rotated its key while its key set is out of reach: the refresh presents nothing (a transient error, the stored token unchanged); with the key set back, one refresh checked against the new key")
    func rotationDuringKeySetOutage() async throws {
        let harness = try await OngoingAccessHarness()
        let consented = try await harness.consentOnce()
        let before = try harness.storedRecord()
        harness.clock.advance(by: 3600)
        await harness.provider.setFault(.rotatedKey, on: .refresh)
        await harness.provider.setKeySetDown(true)
        let refreshes = await harness.provider.refreshCount
        let requestsBefore = await harness.provider.requestLog.count
        for _ in 0..<3 {
            do throws(OngoingAccessError) {
                _ = try await harness.service().authorizeOngoingAccess(oAuthToken: consented)
                Issue.record("the refresh answer could not have been checked")
            } catch {
                #expect(error.isTransient, "\(error)")
                guard case .answerRejected(.keySetUnavailable) = error else {
                    Issue.record("expected keySetUnavailable, got \(error)")
                    continue
                }
            }
            // Past the backoff the transient failure started (the next call would be held, sending nothing).
            harness.clock.advance(by: RenewalHoldPolicy.maximumBackoff * 1.2)
        }
        let log = await harness.provider.requestLog.dropFirst(requestsBefore)
        #expect(!log.contains("POST /v1/oauth/token"), "no refresh grant was sent: \(Array(log))")
        #expect(await harness.provider.refreshCount == refreshes)
        #expect(try harness.storedRecord() == before)

        await harness.provider.setKeySetDown(false)
        let restored = try await harness.service().authorizeOngoingAccess(oAuthToken: consented)
        #expect(restored.origin == .restored && restored.refreshed)
        #expect(await harness.provider.refreshCount == refreshes + 1)
    }
}
