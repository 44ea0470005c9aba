import Foundation

/// The pure transition function `(state, event) -> (state, [effect])`: no clock, storage or I/O, so the state is the
/// fold of the journaled events; an event that does not apply is a thrown ``TransitionRejection``.
package enum RegStateMachine {
    /// The result of applying one event.
    package struct Transition: Sendable, Equatable {
        package var state: RegState
        /// The work to do, in order.
        package var effects: [Effect]

        package init(_ state: RegState, _ effects: [Effect] = []) {
            self.state = state
            self.effects = effects
        }
    }

    /// Applies `event` to `state`, with `input`, the secret the effect needs (never journaled; a replay has none).
    /// Every event lists every state, with no catch-all: a new case does not compile until the table says what it does.
    package static func transition(from state: RegState, on event: MachineEvent,
                                  carrying input: SecretInput? = nil) throws(TransitionRejection) -> Transition {
        let rejection = TransitionRejection(event: event, state: state)
        switch event {
        // Launch: any state may be relaunched.
        case .launched(let isNative):
            return Transition(.unsettled, [isNative ? .inspectStoredTokens : .installNonNativeToken])
        case .nonNativeTokenInstalled:
            switch state {
            case .unsettled: return activate(Session(activation: .nonNative))
            case .registrationRequired, .authenticating, .awaitingConfirmation, .active, .failed: throw rejection
            }
        case .storedTokensInspected(let status):
            switch state {
            case .unsettled: return inspected(status, input)
            case .registrationRequired, .authenticating, .awaitingConfirmation, .active, .failed: throw rejection
            }

        // Renewal.
        case .renewalRequested:
            switch state {
            case .active(let session) where session.isHostDriven:
                // Host mode: RegState does not renew; the host is told, once for this expiry.
                return Transition(state, [.emit(.error(.renewal(.awaitingHost)))])
            case .active(let session) where session.activation != .nonNative:
                if case .staleSecurityToken(let token) = input { return Transition(state, [.renew(.securityToken, replacing: token)]) }
                let stale: String? = if case .staleAccessToken(let token) = input { token } else { nil }
                return Transition(state, [.renew(.accessToken, replacing: stale)])
            case .unsettled, .registrationRequired, .authenticating, .awaitingConfirmation, .active, .failed: throw rejection
            }
        case .renewalSucceeded(let stored):
            switch state {
            case .unsettled: return activate(stored.session(.renewed))
            case .active(let session) where session.activation != .nonNative && !session.isHostDriven:
                return activate(stored.session(.renewed))
            case .registrationRequired, .authenticating, .awaitingConfirmation, .active, .failed: throw rejection
            }
        case .renewalFailed(let failure, let stored):
            switch state {
            case .unsettled: return renewalFailed(in: state, failure: failure, stored: stored)
            case .active(let session) where session.activation != .nonNative:
                return renewalFailed(in: state, failure: failure, stored: stored)
            case .registrationRequired, .authenticating, .awaitingConfirmation, .active, .failed: throw rejection
            }

        // Registration.
        case .registrationRequested(let method):
            switch state {
            case .registrationRequired, .failed:
                return Transition(.authenticating(method), [.runGrant(start(method, input))])
            case .authenticating(let pending) where pending.startsAgain(as: method):
                // A resend (the same address: a new code supersedes the old one), or a device sign-in asked for again
                // (taken up and announced again, never a second one): the attempt goes on.
                return Transition(state, [.runGrant(start(method, input))])
            case .authenticating: return fail(.loginAlreadyInProgress)
            case .unsettled, .awaitingConfirmation, .active: throw rejection
            }
        case .pendingLoginResumed:
            switch state {
            case .registrationRequired, .failed: return Transition(.authenticating(.social))
            case .unsettled, .authenticating, .awaitingConfirmation, .active: throw rejection
            }
        case .authorizationIssued:
            switch state {
            case .authenticating(.device):
                // What to show rides with the event (never journaled); a replay has none and announces nothing.
                guard case .deviceVerification(let verification)? = input else { return Transition(state) }
                return Transition(state, [.emit(.awaitingUser(verification))])
            case .authenticating: return Transition(state)
            case .unsettled, .registrationRequired, .awaitingConfirmation, .active, .failed: throw rejection
            }
        case .credentialsSubmitted:
            switch state {
            case .authenticating(let method): return submitted(method, input, in: state)
            case .unsettled, .registrationRequired, .awaitingConfirmation, .active, .failed:
                // A stray or replayed callback: say so, change nothing.
                return Transition(state, [.emit(.error(.registration(.noPendingLogin)))])
            }
        case .authenticated(let stored):
            switch state {
            case .authenticating: return Transition(.awaitingConfirmation(stored.profile), [.emit(.awaitingConfirmation(stored.profile))])
            case .unsettled, .registrationRequired, .awaitingConfirmation, .active, .failed: throw rejection
            }
        case .registrationFailed(let failure):
            switch state {
            case .authenticating(let method) where failure.keepsAttempt(of: method.grant):
                // A wrong, stale or rate-limited code, or a redirect that is not this login's (forged, replayed,
                // garbled): say so (F) and keep the attempt for another code, a resend or its own redirect.
                return Transition(state, [.emit(.error(.registration(failure)))])
            case .authenticating, .awaitingConfirmation: return fail(failure)
            case .unsettled, .registrationRequired, .active, .failed: throw rejection
            }
        case .confirmationRequested:
            switch state {
            case .awaitingConfirmation: return Transition(state, [.confirmRegistration])
            case .unsettled, .registrationRequired, .authenticating, .active, .failed: throw rejection
            }
        case .registrationConfirmed(let stored):
            switch state {
            case .awaitingConfirmation: return activate(stored.session(.registered))
            case .unsettled, .registrationRequired, .authenticating, .active, .failed: throw rejection
            }
        case .retryRequested:
            switch state {
            case .awaitingConfirmation, .authenticating, .failed:
                return Transition(.registrationRequired,
                                  [.discardPendingAuthorization, .clearProvisionalTokens, .emit(.registrationRequired)])
            case .unsettled, .registrationRequired, .active: throw rejection
            }

        // A note for the journal: nothing changes.
        case .clockOffsetObserved:
            return Transition(state)

        // Ending a session.
        case .logoutRequested:
            guard hasSomethingToEnd(state) else { throw rejection }
            return Transition(state, [.logout])
        case .logoutRefused:
            guard hasSomethingToEnd(state) else { throw rejection }
            return Transition(state)
        case .loggedOut:
            guard hasSomethingToEnd(state) else { throw rejection }
            return Transition(.registrationRequired, [.discardPendingAuthorization, .emit(.registrationRequired)])
        case .forcedLogout:
            switch state {
            case .active(let session) where session.activation != .nonNative:
                let error = RegStateError.renewal(.forcedLogout)
                return Transition(.failed(error), [.emit(.error(error)), .clearAllTokens])
            case .unsettled, .registrationRequired, .authenticating, .awaitingConfirmation, .active, .failed: throw rejection
            }
        case .clearStateRequested:
            return Transition(.unsettled, [.discardPendingAuthorization, .clearEverything])

        // Host mode and the backend security token.
        case .hostTokenSubmitted:
            switch state {
            case .registrationRequired, .failed: return exchange(input, in: state)
            case .active(let session) where session.isHostDriven: return exchange(input, in: state)
            case .unsettled, .authenticating, .awaitingConfirmation, .active: throw rejection
            }
        case .hostTokenAccepted(let stored):
            switch state {
            case .registrationRequired, .failed: return activate(stored.session(.registered))
            case .active(let session) where session.isHostDriven: return activate(stored.session(.renewed))
            case .unsettled, .authenticating, .awaitingConfirmation, .active: throw rejection
            }
        case .hostTokenRefused(let failure):
            let error = RegStateError.registration(failure)
            switch state {
            case .registrationRequired, .failed: return Transition(.failed(error), [.emit(.error(error))])
            // The session the host renewed before stays; the host hears why this token was refused.
            case .active(let session) where session.isHostDriven: return Transition(state, [.emit(.error(error))])
            case .unsettled, .authenticating, .awaitingConfirmation, .active: throw rejection
            }
        case .securityTokenRenewed:
            switch state {
            case .active(let session) where session.activation != .nonNative && !session.isHostDriven:
                guard session.connectivity.isOffline else { return Transition(state) }
                // The backend answered: back online, and the app hears it.
                var renewed = session
                renewed.connectivity = .online
                return activate(renewed)
            case .unsettled, .registrationRequired, .authenticating, .awaitingConfirmation, .active, .failed:
                throw rejection
            }
        case .credentialsCleared:
            switch state {
            case .unsettled, .failed(.renewal): return Transition(.registrationRequired, [.emit(.registrationRequired)])
            case .registrationRequired, .authenticating, .awaitingConfirmation, .active, .failed(.registration):
                throw rejection
            }
        }
    }

    /// What the stored credentials found at launch lead to.
    private static func inspected(_ status: StoredTokenStatus, _ input: SecretInput?) -> Transition {
        switch status {
        case .nothing, .corrupt, .boundElsewhere:
            return Transition(.registrationRequired, [.emit(.registrationRequired)])
        case .unreadable(let reason):
            // Not D: the credentials may be fine, and registering again would replace them. Keep everything.
            let error = RegStateError.renewal(.storage(reason))
            return Transition(.failed(error), [.emit(.error(error))])
        case .valid(let stored):
            return activate(stored.session(.stored))
        case .expired(let stored) where stored.registrationType == .hostSSO:
            // Host mode: RegState cannot renew; the session is kept and the host is told at the first use.
            return activate(stored.session(.stored))
        case .expired:
            // The expired token, when the shell read it, lets the renewal see that another process replaced it.
            let stale: String? = if case .staleAccessToken(let token) = input { token } else { nil }
            return Transition(.unsettled, [.renew(.accessToken, replacing: stale)])
        }
    }

    /// The grant step that starts `method`, with what the app asked the provider for
    /// (``SecretInput/socialLogin(prompt:requirement:)``).
    private static func start(_ method: RegistrationMethod, _ input: SecretInput?) -> GrantStep {
        switch input {
        case .socialLogin(let prompt, let requirement): .start(method, prompt: prompt, requirement: requirement)
        default: .start(method, prompt: nil, requirement: nil)
        }
    }

    /// What the user handed in for the grant in progress: the effect carries it. Without it (or with another grant's
    /// input) there is nothing to check: F, nothing changes.
    private static func submitted(_ method: RegistrationMethod, _ input: SecretInput?, in state: RegState) -> Transition {
        guard let step = method.step(finishingWith: input) else {
            return Transition(state, [.emit(.error(.registration(.noPendingLogin)))])
        }
        return Transition(state, [.runGrant(step)])
    }

    /// Whether logging out means anything: a session, provisional tokens, or a failure that may have left tokens.
    private static func hasSomethingToEnd(_ state: RegState) -> Bool {
        switch state {
        case .active, .awaitingConfirmation, .failed: true
        case .unsettled, .registrationRequired, .authenticating: false
        }
    }

    /// The host's ID token came in: the effect carries it (renewing while a host session is active). A replay has
    /// none and needs none.
    private static func exchange(_ input: SecretInput?, in state: RegState) -> Transition {
        guard case .idToken(let idToken)? = input else { return Transition(state) }
        return Transition(state, [.runGrant(.hostIDToken(idToken, renewing: state.session?.isHostDriven == true))])
    }

    private static func activate(_ session: Session) -> Transition {
        Transition(.active(session), [.emit(.sessionActive(session))])
    }

    private static func fail(_ failure: RegistrationFailure) -> Transition {
        let error = RegStateError.registration(failure)
        return Transition(.failed(error), [.discardPendingAuthorization, .clearProvisionalTokens, .emit(.error(error))])
    }

    /// The precedence rule: a recoverable failure (no answer from the provider, or a local store that failed)
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
        session?.renewalPending = true
        guard let session else { return Transition(.failed(error), [.emit(.error(error))]) }
        return Transition(.active(session), [.emit(.error(error)), .emit(.sessionActive(session))])
    }
}

