import Foundation
import Testing
@testable import RegState
import RegStateTesting

@Suite("Transition table")
struct RegStateMachineTests {
    typealias S = MachineSamples

    struct Row: CustomTestStringConvertible, Sendable {
        let given: RegState
        let when: MachineEvent
        let then: RegState
        let effects: [Effect]
        var carrying: SecretInput?
        var testDescription: String { "given \(given.sampleLabel) when \(when.name)" }
    }

    static let validRows: [Row] = {
        let s = S.stored
        let g = RegStateEvent.registrationRequired
        let social = RegState.authenticating(.social)
        let email = RegState.authenticating(.passwordless(email: "alice@example.com"))
        let confirming = RegState.awaitingConfirmation(S.profile)
        let offline = S.offlineSession
        let transientError = RegStateError.renewal(.transient(.noInternet))
        let deniedError = RegStateError.renewal(.denied(reason: "invalid_grant"))
        func failedF(_ failure: RegistrationFailure) -> (RegState, [Effect]) {
            let e = RegStateError.registration(failure)
            return (.failed(e), [.discardPendingAuthorization, .clearProvisionalTokens, .emit(.error(e))])
        }
        return [
            // Startup (seed 002 steps 1-5).
            Row(given: .unsettled, when: .launched(isNative: false), then: .unsettled, effects: [.installNonNativeToken]),
            Row(given: .active(S.storedSession), when: .launched(isNative: true), then: .unsettled, effects: [.inspectStoredTokens]),
            Row(given: .unsettled, when: .nonNativeTokenInstalled, then: .active(S.nonNativeSession),
                effects: [.emit(.sessionActive(S.nonNativeSession))]),
            Row(given: .unsettled, when: .storedTokensInspected(.nothing), then: .registrationRequired, effects: [.emit(g)]),
            Row(given: .unsettled, when: .storedTokensInspected(.corrupt(reason: "damaged")), then: .registrationRequired,
                effects: [.emit(g)]),
            Row(given: .unsettled, when: .storedTokensInspected(.unreadable(reason: "io")),
                then: .failed(.renewal(.storage("io"))), effects: [.emit(.error(.renewal(.storage("io"))))]),
            Row(given: .active(S.storedSession), when: .renewalFailed(.storage("disk full"), stored: s),
                then: .active(S.pendingSession),
                effects: [.emit(.error(.renewal(.storage("disk full")))), .emit(.sessionActive(S.pendingSession))]),
            Row(given: .unsettled, when: .storedTokensInspected(.valid(s)), then: .active(S.storedSession),
                effects: [.emit(.sessionActive(S.storedSession))]),
            Row(given: .unsettled, when: .storedTokensInspected(.expired(s)), then: .unsettled, effects: [.renew(.accessToken, replacing: nil)]),
            // Renewal: C on success; E transient keeps the session offline; E final clears.
            Row(given: .unsettled, when: .renewalSucceeded(s), then: .active(s.session(.renewed)),
                effects: [.emit(.sessionActive(s.session(.renewed)))]),
            Row(given: .active(offline), when: .renewalSucceeded(s), then: .active(s.session(.renewed)),
                effects: [.emit(.sessionActive(s.session(.renewed)))]),
            Row(given: .unsettled, when: .renewalFailed(.transient(.noInternet), stored: s), then: .active(offline),
                effects: [.emit(.error(transientError)), .emit(.sessionActive(offline))]),
            Row(given: .active(S.storedSession), when: .renewalFailed(.transient(.noInternet), stored: s), then: .active(offline),
                effects: [.emit(.error(transientError)), .emit(.sessionActive(offline))]),
            Row(given: .unsettled, when: .renewalFailed(.denied(reason: "invalid_grant"), stored: s), then: .failed(deniedError),
                effects: [.emit(.error(deniedError)), .clearAllTokens]),
            Row(given: .failed(deniedError), when: .credentialsCleared, then: .registrationRequired, effects: [.emit(g)]),
            Row(given: .active(S.storedSession), when: .renewalRequested(.backendUnauthorized), then: .active(S.storedSession),
                effects: [.renew(.accessToken, replacing: "stale-token")], carrying: .staleAccessToken("stale-token")),
            Row(given: .active(S.storedSession), when: .renewalRequested(.host), then: .active(S.storedSession),
                effects: [.renew(.accessToken, replacing: nil)]),
            // The backend security token (self mode): the same effect, for its kind.
            Row(given: .active(S.storedSession), when: .renewalRequested(.securityTokenExpired), then: .active(S.storedSession),
                effects: [.renew(.securityToken, replacing: "stale-security")], carrying: .staleSecurityToken("stale-security")),
            // Registration (steps 6-7, G, H, Retry, F).
            Row(given: .registrationRequired, when: .registrationRequested(.social), then: social, effects: [.runGrant(.start(.social, prompt: nil, requirement: nil))]),
            Row(given: .registrationRequired, when: .registrationRequested(.passwordless(email: "alice@example.com")), then: email,
                effects: [.runGrant(.start(.passwordless(email: "alice@example.com"), prompt: nil, requirement: nil))]),
            Row(given: .failed(.registration(.stateMismatch)), when: .registrationRequested(.social), then: social,
                effects: [.runGrant(.start(.social, prompt: nil, requirement: nil))]),
            Row(given: social, when: .authorizationIssued, then: social, effects: []),
            // Sign in on another device: started, what to show announced (never journaled: it rides as input), then
            // polled; asked again while pending, the pending one is taken up again; another method is a second login.
            Row(given: .registrationRequired, when: .registrationRequested(.device), then: .authenticating(.device),
                effects: [.runGrant(.start(.device, prompt: nil, requirement: nil))]),
            Row(given: .authenticating(.device), when: .registrationRequested(.device), then: .authenticating(.device),
                effects: [.runGrant(.start(.device, prompt: nil, requirement: nil))]),
            Row(given: .authenticating(.device), when: .authorizationIssued, then: .authenticating(.device),
                effects: [.emit(.awaitingUser(TransitionTable.deviceVerification))],
                carrying: .deviceVerification(TransitionTable.deviceVerification)),
            Row(given: .authenticating(.device), when: .authorizationIssued, then: .authenticating(.device), effects: []),
            Row(given: .authenticating(.device), when: .credentialsSubmitted, then: .authenticating(.device),
                effects: [.runGrant(.awaitApproval)]),
            Row(given: .authenticating(.device), when: .registrationRequested(.social), then: failedF(.loginAlreadyInProgress).0,
                effects: failedF(.loginAlreadyInProgress).1),
            Row(given: .authenticating(.device), when: .registrationFailed(.codeExpired),
                then: failedF(.codeExpired).0, effects: failedF(.codeExpired).1),
            Row(given: .authenticating(.device), when: .retryRequested, then: .registrationRequired,
                effects: [.discardPendingAuthorization, .clearProvisionalTokens, .emit(g)]),
            // A social login kept in the secure store across a relaunch is taken up again; its redirect follows.
            Row(given: .registrationRequired, when: .pendingLoginResumed, then: social, effects: []),
            Row(given: .failed(.registration(.stateMismatch)), when: .pendingLoginResumed, then: social, effects: []),
            // The journal's note of the device clock: nothing changes, in any state.
            Row(given: .active(S.storedSession), when: .clockOffsetObserved(seconds: -600, source: .dateHeader),
                then: .active(S.storedSession), effects: []),
            Row(given: social, when: .clockOffsetObserved(seconds: 86_400, source: .idTokenIssueTime), then: social,
                effects: []),
            Row(given: social, when: .credentialsSubmitted, then: social, effects: [.runGrant(.redirect(S.callback))],
                carrying: .callback(S.callback)),
            Row(given: email, when: .credentialsSubmitted, then: email,
                effects: [.runGrant(.code("123456", email: "alice@example.com"))], carrying: .code("123456")),
            // Submitted without the input its method needs (or with the other method's): F, nothing changes.
            Row(given: social, when: .credentialsSubmitted, then: social, effects: [.emit(.error(.registration(.noPendingLogin)))],
                carrying: .code("123456")),
            Row(given: email, when: .credentialsSubmitted, then: email, effects: [.emit(.error(.registration(.noPendingLogin)))]),
            Row(given: social, when: .authenticated(s), then: confirming, effects: [.emit(.awaitingConfirmation(S.profile))]),
            Row(given: confirming, when: .confirmationRequested, then: confirming, effects: [.confirmRegistration]),
            Row(given: confirming, when: .registrationConfirmed(s), then: .active(s.session(.registered)),
                effects: [.emit(.sessionActive(s.session(.registered)))]),
            Row(given: confirming, when: .retryRequested, then: .registrationRequired,
                effects: [.discardPendingAuthorization, .clearProvisionalTokens, .emit(g)]),
            Row(given: social, when: .registrationRequested(.social), then: failedF(.loginAlreadyInProgress).0,
                effects: failedF(.loginAlreadyInProgress).1),
            // Passwordless second tries: a wrong, stale or rate-limited code keeps the attempt; too many ends it; the
            // same address again is a resend, another method or address is a second login.
            Row(given: email, when: .registrationFailed(.wrongCode), then: email,
                effects: [.emit(.error(.registration(.wrongCode)))]),
            Row(given: email, when: .registrationFailed(.codeSuperseded), then: email,
                effects: [.emit(.error(.registration(.codeSuperseded)))]),
            Row(given: email, when: .registrationFailed(.rateLimited(retryAfter: 30)), then: email,
                effects: [.emit(.error(.registration(.rateLimited(retryAfter: 30))))]),
            Row(given: email, when: .registrationFailed(.tooManyAttempts), then: failedF(.tooManyAttempts).0,
                effects: failedF(.tooManyAttempts).1),
            Row(given: social, when: .registrationFailed(.wrongCode), then: failedF(.wrongCode).0, effects: failedF(.wrongCode).1),
            Row(given: email, when: .registrationRequested(.passwordless(email: "alice@example.com")), then: email,
                effects: [.runGrant(.start(.passwordless(email: "alice@example.com"), prompt: nil, requirement: nil))]),
            Row(given: email, when: .registrationRequested(.passwordless(email: "bob@example.com")),
                then: failedF(.loginAlreadyInProgress).0, effects: failedF(.loginAlreadyInProgress).1),
            Row(given: email, when: .registrationRequested(.social), then: failedF(.loginAlreadyInProgress).0,
                effects: failedF(.loginAlreadyInProgress).1),
            Row(given: confirming, when: .registrationFailed(.tooManyRegisteredDevices),
                then: failedF(.tooManyRegisteredDevices).0, effects: failedF(.tooManyRegisteredDevices).1),
            Row(given: .active(S.storedSession), when: .credentialsSubmitted, then: .active(S.storedSession),
                effects: [.emit(.error(.registration(.noPendingLogin)))]),
            // Ending a session.
            Row(given: .active(S.storedSession), when: .logoutRequested, then: .active(S.storedSession), effects: [.logout]),
            Row(given: .active(offline), when: .logoutRefused(.noInternet), then: .active(offline), effects: []),
            Row(given: .active(S.storedSession), when: .loggedOut, then: .registrationRequired,
                effects: [.discardPendingAuthorization, .emit(g)]),
            Row(given: .active(S.storedSession), when: .forcedLogout, then: .failed(.renewal(.forcedLogout)),
                effects: [.emit(.error(.renewal(.forcedLogout))), .clearAllTokens]),
            Row(given: confirming, when: .clearStateRequested, then: .unsettled, effects: [.discardPendingAuthorization, .clearEverything]),
            Row(given: .unsettled, when: .credentialsCleared, then: .registrationRequired, effects: [.emit(g)]),
        ]
    }()

    @Test("valid pairs give the expected state and effects", arguments: validRows)
    func validPair(_ row: Row) throws {
        let transition = try RegStateMachine.transition(from: row.given, on: row.when, carrying: row.carrying)
        #expect(transition.state == row.then)
        #expect(transition.effects == row.effects)
    }

    /// Every (state, event) pair that the machine accepts, by sample label and event name. Anything not listed must
    /// be rejected with a typed outcome. Changing the machine means changing this table on purpose.
    static let accepted: [String: Set<String>] = {
        let anyState: Set<String> = ["launched", "clearStateRequested", "credentialsSubmitted", "clockOffsetObserved"]
        let renewable: Set<String> = anyState.union(["renewalRequested", "renewalSucceeded", "renewalFailed", "logoutRequested",
                                                     "logoutRefused", "loggedOut", "forcedLogout"])
        let failed: Set<String> = anyState.union(["registrationRequested", "retryRequested", "logoutRequested",
                                                  "logoutRefused", "loggedOut", "pendingLoginResumed"])
        let authenticating: Set<String> = anyState.union(["registrationRequested", "authorizationIssued", "authenticated",
                                                          "registrationFailed", "retryRequested"])
        let host: Set<String> = ["hostTokenSubmitted", "hostTokenAccepted", "hostTokenRefused"]
        let selfRenewable = renewable.union(["securityTokenRenewed"])
        let hostRenewable = renewable.subtracting(["renewalSucceeded"]).union(host)
        return [
            "active_host_H": hostRenewable,
            "active_host_H_offline": hostRenewable,
            "active_host_C": hostRenewable,
            "active_host_C_offline": hostRenewable,
            "unsettled": anyState.union(["nonNativeTokenInstalled", "storedTokensInspected", "renewalSucceeded",
                                         "renewalFailed", "credentialsCleared"]),
            "registrationRequired": anyState.union(["registrationRequested", "pendingLoginResumed"]).union(host),
            "authenticating_social": authenticating,
            "authenticating_passwordless": authenticating,
            "authenticating_device": authenticating,
            "awaitingConfirmation": anyState.union(["registrationFailed", "confirmationRequested", "registrationConfirmed",
                                                    "retryRequested", "logoutRequested", "logoutRefused", "loggedOut"]),
            "active_B": selfRenewable,
            "active_B_offline": selfRenewable,
            "active_C": selfRenewable,
            "active_C_offline": selfRenewable,
            "active_H": selfRenewable,
            "active_H_offline": selfRenewable,
            "active_A": anyState.union(["logoutRequested", "logoutRefused", "loggedOut"]),
            "failed_F": failed.union(host),
            "failed_E": failed.union(["credentialsCleared"]).union(host),
        ]
    }()

    struct Pair: CustomTestStringConvertible, Sendable {
        let state: RegState
        let event: MachineEvent
        var testDescription: String { "\(state.sampleLabel) × \(event.name)" }
    }

    static let allPairs: [Pair] = S.states.flatMap { state in S.events.map { Pair(state: state, event: $0) } }

    @Test("every pair is accepted or rejected exactly as the table says", arguments: allPairs)
    func everyPair(_ pair: Pair) throws {
        let expected = try #require(Self.accepted[pair.state.sampleLabel])
        if expected.contains(pair.event.name) {
            #expect(throws: Never.self) { try RegStateMachine.transition(from: pair.state, on: pair.event) }
        } else {
            #expect(throws: TransitionRejection(event: pair.event, state: pair.state)) {
                try RegStateMachine.transition(from: pair.state, on: pair.event)
            }
        }
    }

    @Test("a transition that changes the state ends by emitting the new state's letter")
    func lettersAgree() throws {
        var checked = 0
        for pair in Self.allPairs {
            guard let transition = try? RegStateMachine.transition(from: pair.state, on: pair.event),
                  transition.state != pair.state, let letter = transition.state.letter else { continue }
            let emitted = transition.effects.compactMap { effect -> RegStateEvent? in
                if case .emit(let event) = effect { return event }
                return nil
            }
            let last = try #require(emitted.last, "\(pair.testDescription) emits nothing")
            #expect(last.letter == letter, "\(pair.testDescription)")
            checked += 1
        }
        // Guards against a vacuous pass (say, if every transition started failing): the table has dozens of such pairs.
        #expect(checked > 10, "only \(checked) state-changing pairs were checked")
    }

    @Test("the journal a real engine wrote folds to the state it is in, and every line decodes to what was applied")
    func foldsARealJournal() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        harness.clock.advance(by: 7200)
        _ = try await service.validAccessToken().token                    // expired: renewed, C
        let before = try await service.journalEntries()
        for name in ["registrationRequested", "credentialsSubmitted", "authenticated", "registrationConfirmed",
                     "renewalRequested", "renewalSucceeded", "launched"] {
            #expect(before.map(\.event.name).contains(name), "the journal has no \(name)")
        }
        #expect(before.map(\.sequence) == Array(1...before.count))
        #expect(JournalEntry.fold(before) == (await service.state))
        #expect(JournalEntry.fold(Array(before.dropLast(2))) != (await service.state), "the fold depends on the events")
        try await service.logout()                                  // D: the journal forgets the user (issue 20)
        try await service.beginPasswordlessRegistration(email: "carol@example.com")
        let relaunched = harness.launch()
        await relaunched.start()                                    // relaunch in the middle of a login
        let entries = try await relaunched.journalEntries()
        #expect(entries.map(\.event.name) == ["registrationRequested", "authorizationIssued", "launched", "storedTokensInspected"])
        #expect(try await relaunched.journalFold() == (await relaunched.state))
        // What the journal holds after its snapshot is exactly what was applied: every line round-trips.
        let lines = Array(try harness.journal.read().lines.dropFirst())
        #expect(try lines.map { try JournalEntry.decode($0) } == entries)
        #expect(try entries.map { try $0.encoded() } == lines)
    }
}

@Suite("Rejections people read")
struct TransitionRejectionTests {
    /// What each state's advice must say: the way out of that state.
    static func expectedAdvice(_ state: RegState) -> String {
        switch state {
        case .active: "log out first"
        case .registrationRequired: "start a registration"
        case .authenticating: "cancel it with Retry"
        case .awaitingConfirmation: "awaiting Confirm or Retry"
        case .unsettled: "wait for its first event"
        case .failed: "the last attempt failed"
        }
    }

    @Test("each rejection the machine throws explains what its state allows", arguments: MachineSamples.states)
    func rejectionSaysWhatToDo(_ state: RegState) {
        // Every rejection the machine really throws in this state, not a hand-made one.
        let rejections = MachineSamples.events.compactMap { event -> TransitionRejection? in
            let result = Result { () throws(TransitionRejection) in try RegStateMachine.transition(from: state, on: event) }
            if case .failure(let rejection) = result { return rejection }
            return nil
        }
        #expect(!rejections.isEmpty, "\(state.caseName) rejects nothing")
        for rejection in rejections {
            #expect(rejection.state == state)
            let text = rejection.localizedDescription
            #expect(text == "That cannot be done now (\(rejection.event.name) in state \(state.caseName)): \(rejection.advice).")
            #expect(rejection.advice.contains(Self.expectedAdvice(state)), "\(text)")
            #expect(!text.contains("alice@example.com"), "a rejection names cases, never personal data")
        }
    }
}

@Suite("Journal redaction")
struct JournalRedactionTests {
    @Test("event details mask every email address and keep the rest")
    func detailsMaskEmails() throws {
        let details = try #require(MachineEvent.authenticated(MachineSamples.stored).redactedDetails)
        let text = String(decoding: details.serialized(), as: UTF8.self)
        #expect(!text.contains("alice@example.com"))
        #expect(text.contains("a***@example.com"))
        #expect(details["profile"]?["subject"] == "user-1")
        #expect(MachineEvent.credentialsSubmitted.redactedDetails == nil)
        #expect(MachineEvent.maskEmails(in: "to <bob@example.com> now") == "to <b***@example.com> now")
        #expect(MachineEvent.maskEmails(in: "no address @ here") == "no address @ here")
        // Anything shaped like local@host, dotted or not, and across any blank (issue 43).
        #expect(MachineEvent.maskEmails(in: "from john.smith@corp\tand\nroot@localhost") == "from j***@corp\tand\nr***@localhost")
        #expect(MachineEvent.maskEmails(in: "a name, then @, then a domain") == "a name, then @, then a domain")
        #expect(MachineEvent.maskEmails(in: "@mention x@ (@) --@-- é@ü") == "@mention x@ (@) --@-- é***@ü")
    }
}
