import Foundation

/// The pure transition function of the registration state machine: `(state, event) -> (state, [effect])`.
///
/// It reads no clock, touches no storage and performs no I/O, so every path can be tested as a table and the state
/// is always the fold of the journaled events. An event that does not apply in a state is a thrown
/// ``TransitionRejection``, never a silent no-op.
public enum RegStateMachine {
    /// The result of applying one event.
    public struct Transition: Sendable, Equatable {
        /// The state after the event.
        public var state: RegState
        /// The work to do, in order.
        public var effects: [Effect]

        /// Creates a transition result.
        public init(_ state: RegState, _ effects: [Effect] = []) {
            self.state = state
            self.effects = effects
        }
    }

    /// Applies `event` to `state`.
    ///
    /// - Parameters:
    ///   - input: the secret the effect needs, handed in by the public call beside the event (never journaled); a
    ///     journal replay has none, and needs none, because it runs no effects.
    /// - Throws: ``TransitionRejection`` when the event does not apply in `state`.
    public static func transition(from state: RegState, on event: MachineEvent,
                                  carrying input: SecretInput? = nil) throws(TransitionRejection) -> Transition {
        switch (state, event) {
        // Launch: any state may be relaunched.
        case (_, .launched(let isNative)):
            return Transition(.unsettled, [isNative ? .inspectStoredTokens : .installNonNativeToken])
        case (.unsettled, .nonNativeTokenInstalled):
            return activate(Session(activation: .nonNative))
        case (.unsettled, .storedTokensInspected(let status)):
            switch status {
            case .nothing, .corrupt:
                return Transition(.registrationRequired, [.emit(.registrationRequired)])
            case .unreadable(let reason):
                // Not D: the credentials may be fine, and registering again would replace them. Keep everything.
                let error = RegStateError.renewal(.storage(reason))
                return Transition(.failed(error), [.emit(.error(error))])
            case .valid(let stored):
                return activate(stored.session(.stored))
            case .expired:
                return Transition(.unsettled, [.renew(replacing: nil)])
            }

        // Renewal.
        case (.active(let session), .renewalRequested):
            guard session.activation != .nonNative else { break }
            let stale: String? = if case .staleAccessToken(let token) = input { token } else { nil }
            return Transition(state, [.renew(replacing: stale)])
        case (.unsettled, .renewalSucceeded(let stored)):
            return activate(stored.session(.renewed))
        case (.active(let session), .renewalSucceeded(let stored)):
            guard session.activation != .nonNative else { break }
            return activate(stored.session(.renewed))
        case (.unsettled, .renewalFailed(let failure, let stored)):
            return renewalFailed(in: state, failure: failure, stored: stored)
        case (.active(let session), .renewalFailed(let failure, let stored)):
            guard session.activation != .nonNative else { break }
            return renewalFailed(in: state, failure: failure, stored: stored)

        // Registration.
        case (.registrationRequired, .registrationRequested(let method)), (.failed, .registrationRequested(let method)):
            switch method {
            case .social: return Transition(.authenticating(method), [.startSocialAuthorization])
            case .passwordless(let email): return Transition(.authenticating(method), [.sendPasswordlessCode(email: email)])
            }
        case (.authenticating, .registrationRequested):
            return fail(.loginAlreadyInProgress)
        case (.authenticating, .authorizationIssued):
            return Transition(state)
        case (.authenticating(let method), .credentialsSubmitted):
            switch (method, input) {
            case (.social, .callback(let callback)?):
                return Transition(state, [.exchangeAuthorizationCode(callback: callback)])
            case (.passwordless(let email), .code(let code)?):
                return Transition(state, [.verifyPasswordlessCode(email: email, code: code)])
            default:
                // Nothing (or the other method's input) was submitted: say so, change nothing.
                return Transition(state, [.emit(.error(.registration(.noPendingLogin)))])
            }
        case (_, .credentialsSubmitted):
            // A stray or replayed callback: say so, change nothing.
            return Transition(state, [.emit(.error(.registration(.noPendingLogin)))])
        case (.authenticating, .authenticated(let stored)):
            return Transition(.awaitingConfirmation(stored.profile), [.emit(.awaitingConfirmation(stored.profile))])
        case (.authenticating, .registrationFailed(let failure)), (.awaitingConfirmation, .registrationFailed(let failure)):
            return fail(failure)
        case (.awaitingConfirmation, .confirmationRequested):
            return Transition(state, [.confirmRegistration])
        case (.awaitingConfirmation, .registrationConfirmed(let stored)):
            return activate(stored.session(.registered))
        case (.awaitingConfirmation, .retryRequested), (.authenticating, .retryRequested), (.failed, .retryRequested):
            return Transition(.registrationRequired,
                              [.discardPendingAuthorization, .clearProvisionalTokens, .emit(.registrationRequired)])

        // Ending a session.
        case (.active, .logoutRequested), (.awaitingConfirmation, .logoutRequested), (.failed, .logoutRequested):
            return Transition(state, [.logout])
        case (.active, .logoutRefused), (.awaitingConfirmation, .logoutRefused), (.failed, .logoutRefused):
            return Transition(state)
        case (.active, .loggedOut), (.awaitingConfirmation, .loggedOut), (.failed, .loggedOut):
            return Transition(.registrationRequired, [.discardPendingAuthorization, .emit(.registrationRequired)])
        case (.active(let session), .forcedLogout):
            guard session.activation != .nonNative else { break }
            let error = RegStateError.renewal(.forcedLogout)
            return Transition(.failed(error), [.emit(.error(error)), .clearAllTokens])
        case (_, .clearStateRequested):
            return Transition(.unsettled, [.discardPendingAuthorization, .clearEverything])
        case (.unsettled, .credentialsCleared), (.failed(.renewal), .credentialsCleared):
            return Transition(.registrationRequired, [.emit(.registrationRequired)])

        default:
            break
        }
        throw TransitionRejection(event: event.name, state: state.caseName)
    }

    private static func activate(_ session: Session) -> Transition {
        Transition(.active(session), [.emit(.sessionActive(session))])
    }

    private static func fail(_ failure: RegistrationFailure) -> Transition {
        let error = RegStateError.registration(failure)
        return Transition(.failed(error), [.discardPendingAuthorization, .clearProvisionalTokens, .emit(.error(error))])
    }

    /// Seed 000's precedence: a recoverable failure (no answer from the provider, or a local store that failed)
    /// keeps the session and its data; only a final one (an explicit refusal, a forced logout, every token expired
    /// offline) ends it and clears storage.
    private static func renewalFailed(in state: RegState, failure: RenewalFailure, stored: StoredSession?) -> Transition {
        let error = RegStateError.renewal(failure)
        guard failure.isRecoverable else { return Transition(.failed(error), [.emit(.error(error)), .clearAllTokens]) }
        var session: Session?
        if case .active(let current) = state {
            session = current
            if let stored { session?.expiresAt = stored.expiresAt }
        } else {
            session = stored?.session(.stored)
        }
        if case .transient(let issue) = failure { session?.connectivity = .offline(issue) }
        guard let session else { return Transition(.failed(error), [.emit(.error(error))]) }
        return Transition(.active(session), [.emit(.error(error)), .emit(.sessionActive(session))])
    }
}

/// An event that does not apply in the current state: the typed outcome of an invalid (state, event) pair.
public struct TransitionRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The event's case name.
    public var event: String
    /// The state's case name.
    public var state: String

    /// Creates a rejection.
    public init(event: String, state: String) {
        self.event = event
        self.state = state
    }

    /// "<event> does not apply in <state>".
    public var description: String { "\(event) does not apply in state \(state)" }
}

extension TransitionRejection: LocalizedError {
    /// A sentence saying what the state allows instead.
    public var errorDescription: String? {
        let advice = switch state {
        case "active": "a session is already active; log out first"
        case "registrationRequired": "no session or registration is in progress; start a registration"
        case "authenticating": "a sign-in is in progress; finish it or cancel it with Retry"
        case "awaitingConfirmation": "the profile is awaiting Confirm or Retry"
        case "unsettled": "the service has not settled yet; wait for its first event"
        default: "the last attempt failed; start a registration again"
        }
        return "That cannot be done now (\(event) in state \(state)): \(advice)."
    }
}

extension RegState {
    /// The case name, for rejections, diagrams and logs.
    public var caseName: String {
        switch self {
        case .unsettled: "unsettled"
        case .registrationRequired: "registrationRequired"
        case .authenticating: "authenticating"
        case .awaitingConfirmation: "awaitingConfirmation"
        case .active: "active"
        case .failed: "failed"
        }
    }
}
