import Foundation
import Testing
@testable import RegState
import RegStateTesting

/// The journal as 4f7e27d wrote it (`JSONEncoder` for most events, the direct writer for the launch's and the common
/// ones) for ``JournalSamples``: every event and state, every failure, awkward strings. The one coding reads every
/// line back to its value and writes the value again to the same bytes.
@Suite("Journal lines written by 4f7e27d")
struct JournalFixtureTests {
    @Test("every entry and snapshot line of 4f7e27d reads back equal and is written again byte for byte")
    func linesRoundTrip() throws {
        let lines = Self.lines.split(separator: "\n").map { Data($0.utf8) }
        let entries = JournalSamples.entries, snapshots = JournalSamples.snapshots
        try #require(lines.count == entries.count + snapshots.count)
        for (line, entry) in zip(lines, entries) {
            #expect(try JournalEntry.decode(line) == entry, "\(String(decoding: line, as: UTF8.self))")
            #expect(try entry.encoded() == Self.writtenNow(line), "\(entry.event.name)")
            #expect(JournalSnapshot.decode(line) == nil)
        }
        for (line, snapshot) in zip(lines.dropFirst(entries.count), snapshots) {
            #expect(JournalSnapshot.decode(line) == snapshot, "\(String(decoding: line, as: UTF8.self))")
            #expect(try snapshot.encoded() == Self.writtenNow(line), "\(snapshot.state.caseName)")
        }
    }

    /// Two failures 4f7e27d wrote under a grant's name are generic now: the old tag reads as the new case, which is
    /// written under its own tag.
    static let renamedTags = [("\"stepUpAnotherUser\"", "\"anotherUser\""), ("\"deviceCodeExpired\"", "\"codeExpired\"")]

    /// `line` as it is written today.
    static func writtenNow(_ line: Data) -> Data {
        Data(renamedTags.reduce(String(decoding: line, as: UTF8.self)) { $0.replacingOccurrences(of: $1.0, with: $1.1) }.utf8)
    }

    @Test("a journal's grant-named failures of earlier versions read as the generic cases: another user, an expired code")
    func grantNamedTags() throws {
        let old = [#"{"at":5,"event":{"registrationFailed":{"_0":{"stepUpAnotherUser":{}}}},"seq":3}"#,
                   #"{"at":5,"event":{"hostTokenRefused":{"_0":{"deviceCodeExpired":{}}}},"seq":3}"#]
        let read = try old.map { try JournalEntry.decode(Data($0.utf8)).event }
        #expect(read == [.registrationFailed(.anotherUser), .hostTokenRefused(.codeExpired)])
        let snapshot = #"{"snapshot":{"seq":4,"state":{"failed":{"_0":{"registration":{"_0":{"deviceCodeExpired":{}}}}}}}}"#
        #expect(JournalSnapshot.decode(Data(snapshot.utf8))?.state == .failed(.registration(.codeExpired)))
        #expect(try JournalEntry(sequence: 3, recordedAt: Date(timeIntervalSince1970: 5), event: read[0]).encoded()
                == Data(#"{"at":5,"event":{"registrationFailed":{"_0":{"anotherUser":{}}}},"seq":3}"#.utf8))
    }

    @Test("older and damaged forms: a session without renewalPending, unknown members, nulls; two cases at once is damage")
    func olderForms() throws {
        let older = Data(#"{"snapshot":{"seq":4,"state":{"active":{"_0":{"activation":"C","connectivity":{"online":{}}}}}}}"#.utf8)
        #expect(JournalSnapshot.decode(older) == JournalSnapshot(sequence: 4, state: .active(Session(activation: .renewed))))
        let extra = Data(#"{"at":5,"event":{"renewalFailed":{"_0":{"noRefreshToken":{"x":1}},"stored":null,"y":2}},"seq":3,"z":[]}"#.utf8)
        #expect(try JournalEntry.decode(extra) == JournalEntry(sequence: 3, recordedAt: Date(timeIntervalSince1970: 5),
                                                                 event: .renewalFailed(.noRefreshToken, stored: nil)))
        for damaged in [#"{"at":5,"event":{"launched":{"isNative":true},"logoutRequested":{}},"seq":3}"#,
                        #"{"at":5,"event":{"launched":{}},"seq":3}"#, #"{"at":5,"event":{"loggedOut":true},"seq":3}"#,
                        #"{"at":5,"event":{"registrationFailed":{"_0":{"rateLimited":{"retryAfter":"soon"}}}},"seq":3}"#,
                        #"{"at":5,"event":{"futureEvent":{}},"seq":3}"#] {
            #expect(throws: JournalError.self, "\(damaged)") { try JournalEntry.decode(Data(damaged.utf8)) }
        }
    }

    @Test("the printed details show times as ISO 8601 to the second, as 4f7e27d printed them")
    func detailsTimes() {
        let failed = MachineEvent.registrationFailed(.signInTooOld(authenticatedAt: JournalSamples.dates[0])).redactedDetails
        #expect(failed == ["signInTooOld": ["authenticatedAt": "2026-11-24T17:01:57Z"]])
        let renewed = MachineEvent.renewalSucceeded(JournalSamples.refreshed).redactedDetails
        #expect(renewed?["expiresAt"] == "2027-01-15T08:00:00Z" && renewed?["refreshExpiresAt"] == "9999-12-31T23:59:59Z")
    }

    static let lines = #"""
{"at":1795539717.7914052,"event":{"launched":{"isNative":true}},"seq":1}
{"at":1800000000,"event":{"launched":{"isNative":false}},"seq":2}
{"at":0.10000002384185791,"event":{"nonNativeTokenInstalled":{}},"seq":3}
{"at":253402300799,"event":{"storedTokensInspected":{"_0":{"nothing":{}}}},"seq":4}
{"at":1795539717.7914052,"event":{"storedTokensInspected":{"_0":{"corrupt":{"reason":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com"}}}},"seq":5}
{"at":1800000000,"event":{"storedTokensInspected":{"_0":{"unreadable":{"reason":"I/O"}}}},"seq":6}
{"at":0.10000002384185791,"event":{"storedTokensInspected":{"_0":{"valid":{"_0":{"expiresAt":1795539717.7914052,"profile":{"email":"alice@example.com","emailVerified":true,"issuer":"https://idp.example/a","name":"Alice","picture":"https://p.example/a.png","subject":"user-1"},"registrationType":"SOCIAL"}}}}},"seq":7}
{"at":253402300799,"event":{"storedTokensInspected":{"_0":{"expired":{"_0":{"expiresAt":1800000000,"profile":{"emailVerified":false,"issuer":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com","subject":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com"},"refreshExpiresAt":253402300799,"registrationType":"PASSWORDLESS"}}}}},"seq":8}
{"at":1795539717.7914052,"event":{"storedTokensInspected":{"_0":{"boundElsewhere":{"_0":"issuer"}}}},"seq":9}
{"at":1800000000,"event":{"storedTokensInspected":{"_0":{"boundElsewhere":{"_0":"client"}}}},"seq":10}
{"at":0.10000002384185791,"event":{"storedTokensInspected":{"_0":{"boundElsewhere":{"_0":"unproven"}}}},"seq":11}
{"at":253402300799,"event":{"renewalRequested":{"_0":"expired"}},"seq":12}
{"at":1795539717.7914052,"event":{"renewalRequested":{"_0":"backendUnauthorized"}},"seq":13}
{"at":1800000000,"event":{"renewalRequested":{"_0":"securityTokenExpired"}},"seq":14}
{"at":0.10000002384185791,"event":{"renewalRequested":{"_0":"host"}},"seq":15}
{"at":253402300799,"event":{"renewalSucceeded":{"_0":{"expiresAt":1795539717.7914052,"profile":{"email":"alice@example.com","emailVerified":true,"issuer":"https://idp.example/a","name":"Alice","picture":"https://p.example/a.png","subject":"user-1"},"registrationType":"SOCIAL"}}},"seq":16}
{"at":1795539717.7914052,"event":{"renewalSucceeded":{"_0":{"expiresAt":1800000000,"profile":{"emailVerified":false,"issuer":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com","subject":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com"},"refreshExpiresAt":253402300799,"registrationType":"PASSWORDLESS"}}},"seq":17}
{"at":1800000000,"event":{"renewalFailed":{"_0":{"transient":{"_0":"noInternet"}}}},"seq":18}
{"at":0.10000002384185791,"event":{"renewalFailed":{"_0":{"transient":{"_0":"ssoUnspecifiedIssue"}}}},"seq":19}
{"at":253402300799,"event":{"renewalFailed":{"_0":{"denied":{"reason":"invalid_grant"}}}},"seq":20}
{"at":1795539717.7914052,"event":{"renewalFailed":{"_0":{"credentialsExhausted":{}}}},"seq":21}
{"at":1800000000,"event":{"renewalFailed":{"_0":{"noRefreshToken":{}}}},"seq":22}
{"at":0.10000002384185791,"event":{"renewalFailed":{"_0":{"storage":{"_0":"io"}}}},"seq":23}
{"at":253402300799,"event":{"renewalFailed":{"_0":{"forcedLogout":{}}}},"seq":24}
{"at":1795539717.7914052,"event":{"renewalFailed":{"_0":{"awaitingHost":{}}}},"seq":25}
{"at":1800000000,"event":{"renewalFailed":{"_0":{"dpopKeyUnavailable":{"reason":"missing"}}}},"seq":26}
{"at":0.10000002384185791,"event":{"renewalFailed":{"_0":{"invalidRefreshedIDToken":{"reason":"sub"}}}},"seq":27}
{"at":253402300799,"event":{"renewalFailed":{"_0":{"interruptedRenewalRefused":{"reason":"invalid_grant"}}}},"seq":28}
{"at":1795539717.7914052,"event":{"renewalFailed":{"_0":{"storage":{"_0":"x"}},"stored":{"expiresAt":1800000000,"profile":{"emailVerified":false,"issuer":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com","subject":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com"},"refreshExpiresAt":253402300799,"registrationType":"PASSWORDLESS"}}},"seq":29}
{"at":1800000000,"event":{"registrationRequested":{"_0":{"social":{}}}},"seq":30}
{"at":0.10000002384185791,"event":{"registrationRequested":{"_0":{"passwordless":{"email":"alice@example.com"}}}},"seq":31}
{"at":253402300799,"event":{"registrationRequested":{"_0":{"device":{}}}},"seq":32}
{"at":1795539717.7914052,"event":{"authorizationIssued":{}},"seq":33}
{"at":1800000000,"event":{"credentialsSubmitted":{}},"seq":34}
{"at":0.10000002384185791,"event":{"authenticated":{"_0":{"expiresAt":0.10000002384185791,"profile":{"email":"alice@example.com","emailVerified":true,"issuer":"https://idp.example/a","name":"Alice","picture":"https://p.example/a.png","subject":"user-1"},"registrationType":"HOST_SSO"}}},"seq":35}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"discoveryFailed":{"_0":"d"}}}},"seq":36}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"transient":{"_0":"noInternet","detail":"offline"}}}},"seq":37}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"transient":{"_0":"ssoUnspecifiedIssue","detail":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com"}}}},"seq":38}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"providerUnreachable":{"_0":"p"}}}},"seq":39}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"pushedAuthorizationRefused":{"description":"why","error":"invalid_request"}}}},"seq":40}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"pushedAuthorizationRefused":{"error":"e"}}}},"seq":41}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"pushedAuthorizationUnavailable":{"_0":"none"}}}},"seq":42}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"stateMismatch":{}}}},"seq":43}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"noPendingLogin":{}}}},"seq":44}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"loginAlreadyInProgress":{}}}},"seq":45}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"pendingLoginExpired":{}}}},"seq":46}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"pendingLoginSuperseded":{}}}},"seq":47}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"malformedCallback":{"_0":"m"}}}},"seq":48}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"issuerMismatchInCallback":{}}}},"seq":49}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"authorizationDenied":{"description":"no","error":"access_denied"}}}},"seq":50}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"authorizationDenied":{"error":"e"}}}},"seq":51}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"tokenRequestFailed":{"description":"t","error":"invalid_grant"}}}},"seq":52}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"tokenRequestFailed":{"error":"e"}}}},"seq":53}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"malformedResponse":{"_0":"r"}}}},"seq":54}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"invalidIDToken":{"_0":"aud"}}}},"seq":55}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"authTimeMissing":{}}}},"seq":56}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"signInTooOld":{"authenticatedAt":1795539717.7914052}}}},"seq":57}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"acrNotAccepted":{"_0":"urn:a"}}}},"seq":58}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"acrNotAccepted":{}}}},"seq":59}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"stepUpAnotherUser":{}}}},"seq":60}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"wrongCode":{}}}},"seq":61}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"codeExpired":{}}}},"seq":62}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"codeReused":{}}}},"seq":63}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"codeSuperseded":{}}}},"seq":64}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"tooManyAttempts":{}}}},"seq":65}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"tooManyRefusedRedirects":{}}}},"seq":66}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"rateLimited":{"retryAfter":30}}}},"seq":67}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"rateLimited":{}}}},"seq":68}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"passwordlessNotOffered":{}}}},"seq":69}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"invalidEmail":{}}}},"seq":70}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"deviceCodeExpired":{}}}},"seq":71}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"deviceAuthorizationNotOffered":{}}}},"seq":72}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"tooManyRegisteredDevices":{}}}},"seq":73}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"maxSecurityTokens":{}}}},"seq":74}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"backendFailed":{"_0":"500"}}}},"seq":75}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"storage":{"_0":"disk"}}}},"seq":76}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"unsupported":{"_0":"web"}}}},"seq":77}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"keyRecordUnreadable":{"reason":"torn"}}}}}},"seq":78}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"keyRecordWrongCurve":{"curve":"P-384"}}}}}},"seq":79}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"cryptoFailed":{"reason":"sign"}}}}}},"seq":80}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"storeFailed":{"reason":"io"}}}}}},"seq":81}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"invalidTargetURL":{}}}}}},"seq":82}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"thumbprintUnavailable":{"reason":"kty"}}}}}},"seq":83}
{"at":253402300799,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"invalidNonce":{"reason":"long"}}}}}},"seq":84}
{"at":1795539717.7914052,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"notOffered":{}}}}}},"seq":85}
{"at":1800000000,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"unboundTokenIssued":{}}}}}},"seq":86}
{"at":0.10000002384185791,"event":{"registrationFailed":{"_0":{"dpop":{"_0":{"boundTokenWithoutProof":{}}}}}},"seq":87}
{"at":253402300799,"event":{"confirmationRequested":{}},"seq":88}
{"at":1795539717.7914052,"event":{"registrationConfirmed":{"_0":{"expiresAt":1800000000,"profile":{"emailVerified":false,"issuer":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com","subject":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com"},"refreshExpiresAt":253402300799,"registrationType":"PASSWORDLESS"}}},"seq":89}
{"at":1800000000,"event":{"retryRequested":{}},"seq":90}
{"at":0.10000002384185791,"event":{"logoutRequested":{}},"seq":91}
{"at":253402300799,"event":{"logoutRefused":{"_0":"noInternet"}},"seq":92}
{"at":1795539717.7914052,"event":{"logoutRefused":{"_0":"ssoUnspecifiedIssue"}},"seq":93}
{"at":1800000000,"event":{"loggedOut":{}},"seq":94}
{"at":0.10000002384185791,"event":{"forcedLogout":{}},"seq":95}
{"at":253402300799,"event":{"clearStateRequested":{}},"seq":96}
{"at":1795539717.7914052,"event":{"credentialsCleared":{}},"seq":97}
{"at":1800000000,"event":{"hostTokenSubmitted":{}},"seq":98}
{"at":0.10000002384185791,"event":{"hostTokenAccepted":{"_0":{"expiresAt":0.10000002384185791,"profile":{"email":"alice@example.com","emailVerified":true,"issuer":"https://idp.example/a","name":"Alice","picture":"https://p.example/a.png","subject":"user-1"},"registrationType":"HOST_SSO"}}},"seq":99}
{"at":253402300799,"event":{"hostTokenRefused":{"_0":{"tooManyRegisteredDevices":{}}}},"seq":100}
{"at":1795539717.7914052,"event":{"hostTokenRefused":{"_0":{"invalidIDToken":{"_0":"exp"}}}},"seq":101}
{"at":1800000000,"event":{"securityTokenRenewed":{}},"seq":102}
{"at":0.10000002384185791,"event":{"pendingLoginResumed":{}},"seq":103}
{"at":253402300799,"event":{"clockOffsetObserved":{"seconds":600,"source":"dateHeader"}},"seq":104}
{"at":1795539717.7914052,"event":{"clockOffsetObserved":{"seconds":-42,"source":"idTokenIssueTime"}},"seq":105}
{"snapshot":{"seq":0,"state":{"unsettled":{}}}}
{"snapshot":{"seq":1000,"state":{"registrationRequired":{}}}}
{"snapshot":{"seq":2000,"state":{"authenticating":{"_0":{"social":{}}}}}}
{"snapshot":{"seq":3000,"state":{"authenticating":{"_0":{"passwordless":{"email":"alice@example.com"}}}}}}
{"snapshot":{"seq":4000,"state":{"authenticating":{"_0":{"device":{}}}}}}
{"snapshot":{"seq":5000,"state":{"awaitingConfirmation":{"_0":{"email":"alice@example.com","emailVerified":true,"issuer":"https://idp.example/a","name":"Alice","picture":"https://p.example/a.png","subject":"user-1"}}}}}
{"snapshot":{"seq":6000,"state":{"awaitingConfirmation":{"_0":{"emailVerified":false,"issuer":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com","subject":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com"}}}}}
{"snapshot":{"seq":7000,"state":{"active":{"_0":{"activation":"A","connectivity":{"online":{}},"renewalPending":false}}}}}
{"snapshot":{"seq":8000,"state":{"active":{"_0":{"activation":"B","connectivity":{"online":{}},"expiresAt":1795539717.7914052,"profile":{"email":"alice@example.com","emailVerified":true,"issuer":"https://idp.example/a","name":"Alice","picture":"https://p.example/a.png","subject":"user-1"},"registrationType":"SOCIAL","renewalPending":false}}}}}
{"snapshot":{"seq":9000,"state":{"active":{"_0":{"activation":"H","connectivity":{"offline":{"_0":"noInternet"}},"expiresAt":0.10000002384185791,"profile":{"email":"alice@example.com","emailVerified":true,"issuer":"https://idp.example/a","name":"Alice","picture":"https://p.example/a.png","subject":"user-1"},"registrationType":"HOST_SSO","renewalPending":false}}}}}
{"snapshot":{"seq":10000,"state":{"active":{"_0":{"activation":"C","connectivity":{"offline":{"_0":"ssoUnspecifiedIssue"}},"expiresAt":1800000000,"profile":{"emailVerified":false,"issuer":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com","subject":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com"},"registrationType":"PASSWORDLESS","renewalPending":true}}}}}
{"snapshot":{"seq":11000,"state":{"failed":{"_0":{"renewal":{"_0":{"transient":{"_0":"noInternet"}}}}}}}}
{"snapshot":{"seq":12000,"state":{"failed":{"_0":{"renewal":{"_0":{"transient":{"_0":"ssoUnspecifiedIssue"}}}}}}}}
{"snapshot":{"seq":13000,"state":{"failed":{"_0":{"renewal":{"_0":{"denied":{"reason":"invalid_grant"}}}}}}}}
{"snapshot":{"seq":14000,"state":{"failed":{"_0":{"renewal":{"_0":{"credentialsExhausted":{}}}}}}}}
{"snapshot":{"seq":15000,"state":{"failed":{"_0":{"renewal":{"_0":{"noRefreshToken":{}}}}}}}}
{"snapshot":{"seq":16000,"state":{"failed":{"_0":{"renewal":{"_0":{"storage":{"_0":"io"}}}}}}}}
{"snapshot":{"seq":17000,"state":{"failed":{"_0":{"renewal":{"_0":{"forcedLogout":{}}}}}}}}
{"snapshot":{"seq":18000,"state":{"failed":{"_0":{"renewal":{"_0":{"awaitingHost":{}}}}}}}}
{"snapshot":{"seq":19000,"state":{"failed":{"_0":{"renewal":{"_0":{"dpopKeyUnavailable":{"reason":"missing"}}}}}}}}
{"snapshot":{"seq":20000,"state":{"failed":{"_0":{"renewal":{"_0":{"invalidRefreshedIDToken":{"reason":"sub"}}}}}}}}
{"snapshot":{"seq":21000,"state":{"failed":{"_0":{"renewal":{"_0":{"interruptedRenewalRefused":{"reason":"invalid_grant"}}}}}}}}
{"snapshot":{"seq":22000,"state":{"failed":{"_0":{"registration":{"_0":{"discoveryFailed":{"_0":"d"}}}}}}}}
{"snapshot":{"seq":23000,"state":{"failed":{"_0":{"registration":{"_0":{"transient":{"_0":"noInternet","detail":"offline"}}}}}}}}
{"snapshot":{"seq":24000,"state":{"failed":{"_0":{"registration":{"_0":{"transient":{"_0":"ssoUnspecifiedIssue","detail":"A \"quoted\" \\ back/slash\n\t\r\b\f\u0001\u001f é 😀 bob@example.com"}}}}}}}}
{"snapshot":{"seq":25000,"state":{"failed":{"_0":{"registration":{"_0":{"providerUnreachable":{"_0":"p"}}}}}}}}
{"snapshot":{"seq":26000,"state":{"failed":{"_0":{"registration":{"_0":{"pushedAuthorizationRefused":{"description":"why","error":"invalid_request"}}}}}}}}
{"snapshot":{"seq":27000,"state":{"failed":{"_0":{"registration":{"_0":{"pushedAuthorizationRefused":{"error":"e"}}}}}}}}
{"snapshot":{"seq":28000,"state":{"failed":{"_0":{"registration":{"_0":{"pushedAuthorizationUnavailable":{"_0":"none"}}}}}}}}
{"snapshot":{"seq":29000,"state":{"failed":{"_0":{"registration":{"_0":{"stateMismatch":{}}}}}}}}
{"snapshot":{"seq":30000,"state":{"failed":{"_0":{"registration":{"_0":{"noPendingLogin":{}}}}}}}}
{"snapshot":{"seq":31000,"state":{"failed":{"_0":{"registration":{"_0":{"loginAlreadyInProgress":{}}}}}}}}
{"snapshot":{"seq":32000,"state":{"failed":{"_0":{"registration":{"_0":{"pendingLoginExpired":{}}}}}}}}
{"snapshot":{"seq":33000,"state":{"failed":{"_0":{"registration":{"_0":{"pendingLoginSuperseded":{}}}}}}}}
{"snapshot":{"seq":34000,"state":{"failed":{"_0":{"registration":{"_0":{"malformedCallback":{"_0":"m"}}}}}}}}
{"snapshot":{"seq":35000,"state":{"failed":{"_0":{"registration":{"_0":{"issuerMismatchInCallback":{}}}}}}}}
{"snapshot":{"seq":36000,"state":{"failed":{"_0":{"registration":{"_0":{"authorizationDenied":{"description":"no","error":"access_denied"}}}}}}}}
{"snapshot":{"seq":37000,"state":{"failed":{"_0":{"registration":{"_0":{"authorizationDenied":{"error":"e"}}}}}}}}
{"snapshot":{"seq":38000,"state":{"failed":{"_0":{"registration":{"_0":{"tokenRequestFailed":{"description":"t","error":"invalid_grant"}}}}}}}}
{"snapshot":{"seq":39000,"state":{"failed":{"_0":{"registration":{"_0":{"tokenRequestFailed":{"error":"e"}}}}}}}}
{"snapshot":{"seq":40000,"state":{"failed":{"_0":{"registration":{"_0":{"malformedResponse":{"_0":"r"}}}}}}}}
{"snapshot":{"seq":41000,"state":{"failed":{"_0":{"registration":{"_0":{"invalidIDToken":{"_0":"aud"}}}}}}}}
{"snapshot":{"seq":42000,"state":{"failed":{"_0":{"registration":{"_0":{"authTimeMissing":{}}}}}}}}
{"snapshot":{"seq":43000,"state":{"failed":{"_0":{"registration":{"_0":{"signInTooOld":{"authenticatedAt":1795539717.7914052}}}}}}}}
{"snapshot":{"seq":44000,"state":{"failed":{"_0":{"registration":{"_0":{"acrNotAccepted":{"_0":"urn:a"}}}}}}}}
{"snapshot":{"seq":45000,"state":{"failed":{"_0":{"registration":{"_0":{"acrNotAccepted":{}}}}}}}}
{"snapshot":{"seq":46000,"state":{"failed":{"_0":{"registration":{"_0":{"stepUpAnotherUser":{}}}}}}}}
{"snapshot":{"seq":47000,"state":{"failed":{"_0":{"registration":{"_0":{"wrongCode":{}}}}}}}}
{"snapshot":{"seq":48000,"state":{"failed":{"_0":{"registration":{"_0":{"codeExpired":{}}}}}}}}
{"snapshot":{"seq":49000,"state":{"failed":{"_0":{"registration":{"_0":{"codeReused":{}}}}}}}}
{"snapshot":{"seq":50000,"state":{"failed":{"_0":{"registration":{"_0":{"codeSuperseded":{}}}}}}}}
{"snapshot":{"seq":51000,"state":{"failed":{"_0":{"registration":{"_0":{"tooManyAttempts":{}}}}}}}}
{"snapshot":{"seq":52000,"state":{"failed":{"_0":{"registration":{"_0":{"tooManyRefusedRedirects":{}}}}}}}}
{"snapshot":{"seq":53000,"state":{"failed":{"_0":{"registration":{"_0":{"rateLimited":{"retryAfter":30}}}}}}}}
{"snapshot":{"seq":54000,"state":{"failed":{"_0":{"registration":{"_0":{"rateLimited":{}}}}}}}}
{"snapshot":{"seq":55000,"state":{"failed":{"_0":{"registration":{"_0":{"passwordlessNotOffered":{}}}}}}}}
{"snapshot":{"seq":56000,"state":{"failed":{"_0":{"registration":{"_0":{"invalidEmail":{}}}}}}}}
{"snapshot":{"seq":57000,"state":{"failed":{"_0":{"registration":{"_0":{"deviceCodeExpired":{}}}}}}}}
{"snapshot":{"seq":58000,"state":{"failed":{"_0":{"registration":{"_0":{"deviceAuthorizationNotOffered":{}}}}}}}}
{"snapshot":{"seq":59000,"state":{"failed":{"_0":{"registration":{"_0":{"tooManyRegisteredDevices":{}}}}}}}}
{"snapshot":{"seq":60000,"state":{"failed":{"_0":{"registration":{"_0":{"maxSecurityTokens":{}}}}}}}}
{"snapshot":{"seq":61000,"state":{"failed":{"_0":{"registration":{"_0":{"backendFailed":{"_0":"500"}}}}}}}}
{"snapshot":{"seq":62000,"state":{"failed":{"_0":{"registration":{"_0":{"storage":{"_0":"disk"}}}}}}}}
{"snapshot":{"seq":63000,"state":{"failed":{"_0":{"registration":{"_0":{"unsupported":{"_0":"web"}}}}}}}}
{"snapshot":{"seq":64000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"keyRecordUnreadable":{"reason":"torn"}}}}}}}}}}
{"snapshot":{"seq":65000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"keyRecordWrongCurve":{"curve":"P-384"}}}}}}}}}}
{"snapshot":{"seq":66000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"cryptoFailed":{"reason":"sign"}}}}}}}}}}
{"snapshot":{"seq":67000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"storeFailed":{"reason":"io"}}}}}}}}}}
{"snapshot":{"seq":68000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"invalidTargetURL":{}}}}}}}}}}
{"snapshot":{"seq":69000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"thumbprintUnavailable":{"reason":"kty"}}}}}}}}}}
{"snapshot":{"seq":70000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"invalidNonce":{"reason":"long"}}}}}}}}}}
{"snapshot":{"seq":71000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"notOffered":{}}}}}}}}}}
{"snapshot":{"seq":72000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"unboundTokenIssued":{}}}}}}}}}}
{"snapshot":{"seq":73000,"state":{"failed":{"_0":{"registration":{"_0":{"dpop":{"_0":{"boundTokenWithoutProof":{}}}}}}}}}}
"""#
}
