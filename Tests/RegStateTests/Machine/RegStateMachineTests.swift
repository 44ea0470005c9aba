import Foundation
import Testing
@testable import RegState

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
                then: .active(S.storedSession),
                effects: [.emit(.error(.renewal(.storage("disk full")))), .emit(.sessionActive(S.storedSession))]),
            Row(given: .unsettled, when: .storedTokensInspected(.valid(s)), then: .active(S.storedSession),
                effects: [.emit(.sessionActive(S.storedSession))]),
            Row(given: .unsettled, when: .storedTokensInspected(.expired(s)), then: .unsettled, effects: [.renew(replacing: nil)]),
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
                effects: [.renew(replacing: "stale-token")], carrying: .staleAccessToken("stale-token")),
            Row(given: .active(S.storedSession), when: .renewalRequested(.host), then: .active(S.storedSession),
                effects: [.renew(replacing: nil)]),
            // Registration (steps 6-7, G, H, Retry, F).
            Row(given: .registrationRequired, when: .registrationRequested(.social), then: social, effects: [.startSocialAuthorization]),
            Row(given: .registrationRequired, when: .registrationRequested(.passwordless(email: "alice@example.com")), then: email,
                effects: [.sendPasswordlessCode(email: "alice@example.com")]),
            Row(given: .failed(.registration(.stateMismatch)), when: .registrationRequested(.social), then: social,
                effects: [.startSocialAuthorization]),
            Row(given: social, when: .authorizationIssued, then: social, effects: []),
            Row(given: social, when: .credentialsSubmitted, then: social, effects: [.exchangeAuthorizationCode(callback: S.callback)],
                carrying: .callback(S.callback)),
            Row(given: email, when: .credentialsSubmitted, then: email,
                effects: [.verifyPasswordlessCode(email: "alice@example.com", code: "123456")], carrying: .code("123456")),
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
            Row(given: email, when: .registrationFailed(.wrongCode), then: failedF(.wrongCode).0, effects: failedF(.wrongCode).1),
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
        let anyState: Set<String> = ["launched", "clearStateRequested", "credentialsSubmitted"]
        let renewable: Set<String> = anyState.union(["renewalRequested", "renewalSucceeded", "renewalFailed", "logoutRequested",
                                                     "logoutRefused", "loggedOut", "forcedLogout"])
        let failed: Set<String> = anyState.union(["registrationRequested", "retryRequested", "logoutRequested",
                                                  "logoutRefused", "loggedOut"])
        let authenticating: Set<String> = anyState.union(["registrationRequested", "authorizationIssued", "authenticated",
                                                          "registrationFailed", "retryRequested"])
        return [
            "unsettled": anyState.union(["nonNativeTokenInstalled", "storedTokensInspected", "renewalSucceeded",
                                         "renewalFailed", "credentialsCleared"]),
            "registrationRequired": anyState.union(["registrationRequested"]),
            "authenticating_social": authenticating,
            "authenticating_passwordless": authenticating,
            "awaitingConfirmation": anyState.union(["registrationFailed", "confirmationRequested", "registrationConfirmed",
                                                    "retryRequested", "logoutRequested", "logoutRefused", "loggedOut"]),
            "active_B": renewable,
            "active_B_offline": renewable,
            "active_A": anyState.union(["logoutRequested", "logoutRefused", "loggedOut"]),
            "failed_F": failed,
            "failed_E": failed.union(["credentialsCleared"]),
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
            #expect(throws: TransitionRejection(event: pair.event.name, state: pair.state.caseName)) {
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

    @Test("replaying a journal folds to the same state as applying it live")
    func foldIsDeterministic() throws {
        let journal: [MachineEvent] = [
            .launched(isNative: true), .storedTokensInspected(.nothing), .registrationRequested(.social),
            .authorizationIssued, .credentialsSubmitted, .authenticated(S.stored), .confirmationRequested,
            .registrationConfirmed(S.stored), .launched(isNative: true), .storedTokensInspected(.expired(S.stored)),
            .renewalFailed(.transient(.ssoUnspecifiedIssue), stored: S.stored), .renewalRequested(.host),
            .renewalSucceeded(S.stored),
        ]
        var state = RegState.unsettled
        for event in journal { state = try RegStateMachine.transition(from: state, on: event).state }
        #expect(state == .active(S.stored.session(.renewed)))
        let encoded = try JSONEncoder().encode(journal)
        let decoded = try JSONDecoder().decode([MachineEvent].self, from: encoded)
        #expect(decoded == journal)
    }
}

@Suite("Rejections people read")
struct TransitionRejectionTests {
    @Test("a rejected call explains what the state allows", arguments: MachineSamples.states)
    func rejectionSaysWhatToDo(_ state: RegState) {
        let rejection = TransitionRejection(event: "confirmationRequested", state: state.caseName)
        let text = rejection.localizedDescription
        #expect(text.hasPrefix("That cannot be done now (confirmationRequested in state \(state.caseName)): "))
        #expect(text.count > 60, "\(text)")
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
    }
}
