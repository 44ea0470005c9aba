import Foundation
import Testing
@testable import RegState

@Suite("Journal format")
struct JournalFormatTests {
    /// A line as the engine wrote it before `StoredSession.hasRefreshToken` was removed.
    static let oldLine = #"{"at":1800000000,"event":{"renewalSucceeded":{"_0":{"expiresAt":1800003600,"hasRefreshToken":true,"#
        + #""profile":{"email":"alice@example.com","emailVerified":true,"issuer":"https:\/\/idp.example","name":"Alice","#
        + #""subject":"user-1"},"registrationType":"SOCIAL"}}},"seq":7}"#

    @Test("a journal line written by the previous format still decodes, and folds as before")
    func oldFormatDecodes() throws {
        let entry = try JournalEntry.decode(Data(Self.oldLine.utf8))
        #expect(entry.sequence == 7)
        guard case .renewalSucceeded(let stored) = entry.event else {
            Issue.record("decoded \(entry.event.name)")
            return
        }
        #expect(stored.profile.subject == "user-1")
        #expect(stored.expiresAt == Date(timeIntervalSince1970: 1_800_003_600))
        #expect(JournalEntry.fold([entry]) == .active(stored.session(.renewed)))
        // What the engine writes now has no hasRefreshToken, and reads back the same.
        let rewritten = try entry.encoded()
        #expect(!String(decoding: rewritten, as: UTF8.self).contains("hasRefreshToken"))
        #expect(try JournalEntry.decode(rewritten) == entry)
    }

    /// Every kind of ``RegistrationFailure`` as journals hold it (Swift's synthesized form, written before the grant
    /// that is not offered became one generic case).
    static let failureLines: [(RegistrationFailure, String)] = [
        (.grantNotOffered(.passwordless), #"{"passwordlessNotOffered":{}}"#),
        (.grantNotOffered(.deviceAuthorization), #"{"deviceAuthorizationNotOffered":{}}"#),
        (.wrongCode, #"{"wrongCode":{}}"#),
        (.discoveryFailed("d"), #"{"discoveryFailed":{"_0":"d"}}"#),
        (.storage("s"), #"{"storage":{"_0":"s"}}"#),
        (.transient(.noInternet, detail: "x"), #"{"transient":{"_0":"noInternet","detail":"x"}}"#),
        (.tokenRequestFailed(error: "invalid_grant", description: nil), #"{"tokenRequestFailed":{"error":"invalid_grant"}}"#),
        (.authorizationDenied(error: "access_denied", description: "no"),
         #"{"authorizationDenied":{"description":"no","error":"access_denied"}}"#),
        (.pushedAuthorizationRefused(error: "e", description: nil), #"{"pushedAuthorizationRefused":{"error":"e"}}"#),
        (.signInTooOld(authenticatedAt: Date(timeIntervalSince1970: 10)), #"{"signInTooOld":{"authenticatedAt":10}}"#),
        (.acrNotAccepted(nil), #"{"acrNotAccepted":{}}"#), (.acrNotAccepted("a"), #"{"acrNotAccepted":{"_0":"a"}}"#),
        (.rateLimited(retryAfter: 3), #"{"rateLimited":{"retryAfter":3}}"#), (.rateLimited(retryAfter: nil), #"{"rateLimited":{}}"#),
        (.dpop(.keyRecordWrongCurve(curve: "P-384")), #"{"dpop":{"_0":{"keyRecordWrongCurve":{"curve":"P-384"}}}}"#),
    ]

    @Test("a registration failure is written and read in the form journals hold", arguments: failureLines)
    func failureCoding(failure: RegistrationFailure, line: String) throws {
        var text = JSONText()
        let written = text.value(failure.json)
        #expect(written)
        #expect(text.text == line)
        #expect(try RegistrationFailure(json: try JSONFields(parsing: Data(line.utf8)).json) == failure)
    }
}

@Suite("Effects keep their secrets")
struct EffectRedactionTests {
    @Test("an effect's description and reflection never show the callback, the code or the stale token")
    func effectsAreRedacted() {
        let callback = URL(string: "com.example.app:/callback?code=secret-code&state=secret-state")!
        let effects: [Effect] = [.runGrant(.redirect(callback)),
                                 .runGrant(.code("654321", email: "alice@example.com")),
                                 .runGrant(.start(.passwordless(email: "alice@example.com"), prompt: nil, requirement: nil)),
                                 .runGrant(.hostIDToken("secret-code", renewing: false)),
                                 .renew(.accessToken, replacing: "stale-access-token"),
                                 .renew(.securityToken, replacing: "stale-access-token")]
        for effect in effects {
            var dumped = ""
            dump(effect, to: &dumped)
            for text in [String(describing: effect), String(reflecting: effect), dumped] {
                for secret in ["secret-code", "secret-state", "654321", "stale-access-token", "alice@example.com"] {
                    #expect(!text.contains(secret), "\(text)")
                }
            }
        }
        #expect(String(describing: Effect.renew(.accessToken, replacing: nil)) == "renew(accessToken, replacing: nil)")
        for input in [SecretInput.callback(callback), .code("654321"), .staleAccessToken("stale-access-token"),
                      .staleSecurityToken("stale-access-token")] {
            var dumped = ""
            dump(input, to: &dumped)
            for text in [String(describing: input), String(reflecting: input), dumped] {
                #expect(!["secret-code", "654321", "stale-access-token"].contains { text.contains($0) }, "\(text)")
            }
        }
    }
}
