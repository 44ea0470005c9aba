import Foundation

/// Why a call of the session API did not do what it was asked: the one error type that ``RegStateService``,
/// ``AuthorizedTransport`` and `RegStateURLProtocol` throw (typed throws), so an app switches over one set of cases.
/// It never contains token material. The cases other than ``registration(_:)``, ``renewal(_:)`` and ``offline(_:)``
/// (the lettered failures, ``lettered``) are about the call itself and change no state.
public enum RegStateServiceError: Error, Sendable, Equatable {
    /// The call does not apply in the current state (a session already active, nothing to retry): nothing changed.
    case rejected(TransitionRejection)
    /// **F**: the registration or sign-in failed for this reason.
    case registration(RegistrationFailure)
    /// **E**: renewing the session failed for a reason that is not transient (``RenewalFailure/isRecoverable`` says
    /// whether the session survived it).
    case renewal(RenewalFailure)
    /// The provider or the backend could not be reached, or is not answering: the session is kept with its data and
    /// nothing changed (logout included). Trying again later may succeed.
    case offline(TransientIssue)
    /// No session is active: none, or it ended while the call waited.
    case noSession
    /// The call is for the other session source: ``SessionSource/host`` when the host renews this session (a
    /// host-driven session has no provider access token), ``SessionSource/selfRenewing`` for a host-mode call made
    /// while RegState renews the session by itself.
    case wrongSessionSource(SessionSource)
    /// A request was rejected again with the token renewed for it. That token is not renewed again for this failure
    /// until a hold on the injected clock has passed (30 s, doubling to 15 min).
    case rejectedAfterRenewal
    /// The API asked for a more recent or stronger sign-in (RFC 9470 `insufficient_user_authentication`), with what
    /// it wants: nothing was renewed or retried (a renewal carries the old sign-in). Sign in again with its
    /// requirement and send the request again.
    case stepUpRequired(StepUpChallenge)
    /// A request was rejected with a token that was renewed for an earlier rejection (in this process or another,
    /// this launch or an earlier one) and is held until `until`: nothing was renewed for it. A hold is never longer
    /// than its own backoff from now (30 s, doubling to 15 min), whatever the store says.
    case rejectionHeld(until: Date)
    /// The registration backend refused or could not be reached (``BackendError/forcedLogout`` when it ended the
    /// session: local data was cleared).
    case backend(BackendError)
    /// Check Registration could not confirm the registration; nothing stored changed.
    case registrationCheck(RegistrationCheckError)
    /// A DPoP proof for a DPoP-bound token could not be made (its key unreadable, a nonce the server sent unusable);
    /// nothing was sent.
    case dpop(DPoPError)
    /// An app's request sent through ``AuthorizedTransport`` got no response.
    case transport(TransportError)
    /// The caller's task was cancelled while it waited (for a renewal, say); the work goes on for the others.
    case cancelled
    /// The secure store could not be read or written (``StoreError/isRecoverable`` says whether a later call may
    /// succeed: a locked device, a busy lock); never a token.
    case storage(StoreError)
    /// The event journal could not be read.
    case journal(JournalError)
    /// The session ended (a logout, or the backend's forced logout), but its credentials could not be removed from
    /// the secure store (the store's error: its lock not taken in time, a write refused, a locked device). They are
    /// still on the device, and the next launch finds the session: ``RegStateService/clearState()`` removes them.
    case credentialsRemain(StoreError)

    /// The failure a renewal ended in, as a call reports it: a transient one is ``offline(_:)``, the others
    /// ``renewal(_:)``.
    init(_ failure: RenewalFailure) {
        if case .transient(let issue) = failure { self = .offline(issue) } else { self = .renewal(failure) }
    }

    /// The lettered error the state carries for this failure, when it is one: **F** for ``registration(_:)``, **E**
    /// for ``renewal(_:)`` and ``offline(_:)``.
    public var lettered: RegStateError? {
        switch self {
        case .registration(let failure): .registration(failure)
        case .renewal(let failure): .renewal(failure)
        case .offline(let issue): .renewal(.transient(issue))
        default: nil
        }
    }

    /// Whether trying again later may succeed while the session is kept.
    public var isTransient: Bool {
        switch self {
        case .offline, .rejectedAfterRenewal, .rejectionHeld: true
        case .backend(let error): error.isTransient
        case .transport(let error): error.isTransient
        default: false
        }
    }
}

extension RegStateServiceError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .rejected(let rejection): rejection.errorDescription
        case .registration(let failure): failure.errorDescription
        case .renewal(let failure): failure.errorDescription
        case .offline(.noInternet): "You are offline; the session is kept and nothing was changed."
        case .offline(.ssoUnspecifiedIssue): "The sign-in service is not answering; the session is kept and nothing was changed."
        case .noSession: "No session is active."
        case .wrongSessionSource(let source):
            source == .host ? "The host renews this session: it has a security token, no access token."
                : "This call is for host-driven sessions; RegState renews this one by itself."
        case .rejectedAfterRenewal: "The server rejected the request again after the token was renewed."
        case .stepUpRequired(let challenge): "The server asks you to sign in again first: \(challenge)."
        case .rejectionHeld(let until):
            "The server rejected the request; its token is held until \(until.formatted(.iso8601)), not renewed "
                + "(it was renewed for an earlier rejection)."
        case .backend(let error): error.errorDescription
        case .registrationCheck(let error): error.errorDescription
        case .dpop(let error): error.errorDescription
        case .transport(let error): error.errorDescription
        case .cancelled: "The call was cancelled."
        case .storage(let error): "The stored data could not be read (\(error.localizedDescription))."
        case .journal(let error): error.errorDescription
        case .credentialsRemain(let error):
            "The session was ended, but its credentials could not be removed from this device (\(error.localizedDescription)); try again."
        }
    }
}
