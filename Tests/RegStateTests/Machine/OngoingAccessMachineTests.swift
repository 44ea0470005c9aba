import Foundation
import Testing
@testable import RegState
@testable import RegStateOngoingAccess

/// The ongoing-access table as rules over every state and every fact of the flow.
@Suite("Ongoing access: the pure transition table")
struct OngoingAccessMachineTests {
    static let session = OngoingAccessSession(key: "session-key", scope: .all, expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
    static let token = OAuthToken(accessToken: "access", accessTokenExpiresAt: Date(timeIntervalSince1970: 1_900_000_000),
                                  refreshToken: "refresh", refreshTokenExpiresAt: Date(timeIntervalSince1970: 1_990_000_000))
    static let states: [OngoingAccessState] = [.idle, .authorizing, .authorized(session), .expired]
    static let failures: [OngoingAccessError] = [
        .oAuthTokenExpired, .consentRefused, .accessRejected, .notAuthorized, .providerRefused(status: 503, error: "down"),
        .transport(.connectionFailed("offline")), .malformedAnswer("no session"),
    ]
    static var inputs: [OngoingAccessMachine.Input] {
        var inputs: [OngoingAccessMachine.Input] = [.began, .reconsentNeeded, .refreshed(accessTokenExpiresAt: .distantFuture)]
        for origin in [OngoingAccessAuthorization.Origin.consent, .restored] {
            for refreshed in [false, true] {
                inputs.append(.authorized(OngoingAccessAuthorization(session: session, oAuthToken: token, origin: origin,
                                                                     refreshed: refreshed)))
            }
        }
        for error in failures {
            for previous in states { inputs.append(.failed(error, previous: previous)) }
        }
        return inputs
    }

    @Test("every state and every fact: the rule of its kind, and nothing else changes")
    func everyRow() {
        for state in Self.states {
            for input in Self.inputs {
                let step = Result { () throws(OngoingAccessError) in try OngoingAccessMachine.transition(state, on: input) }
                switch (input, step) {
                case (.began, .failure(let error)):
                    #expect(state == .authorizing && error == .authorizationInProgress, "\(state) began")
                case (.began, .success(let step)):
                    #expect(state != .authorizing, "a second authorization is refused, not queued")
                    #expect(step.state == .authorizing && step.events.isEmpty)
                case (.reconsentNeeded, .success(let step)):
                    #expect(step.state == state && step.events == [.reconsentNeeded])
                case (.refreshed(let expiry), .success(let step)):
                    #expect(step.state == state && step.events == [.refreshed(accessTokenExpiresAt: expiry)])
                case (.authorized(let result), .success(let step)):
                    #expect(step.state == .authorized(result.session))
                    let told: OngoingAccessEvent = result.origin == .consent
                        ? .authorized(scope: result.session.scope) : .restored(refreshed: result.refreshed)
                    #expect(step.events == [told])
                case (.failed(let error, let previous), .success(let step)):
                    if error == .oAuthTokenExpired {
                        #expect(step.state == .expired && step.events == [.expired])
                    } else {
                        #expect(step.state == previous, "a failure stores nothing: the state before it holds")
                        #expect(step.events == [.failed(error)])
                    }
                case (_, .failure(let error)):
                    Issue.record("only a second authorization is refused; \(input) in \(state) threw \(error)")
                }
            }
        }
    }
}
