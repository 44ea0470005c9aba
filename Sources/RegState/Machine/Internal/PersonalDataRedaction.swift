import Foundation

/// Journal lines without personal data, once the user is gone but the reason must stay (a final **E**, a forced
/// logout): profiles keep only their issuer, methods lose their address; the journal still folds to the same state.
enum PersonalDataRedaction {
    static func profile(_ profile: Profile) -> Profile {
        Profile(subject: "redacted", issuer: profile.issuer)
    }

    static func stored(_ stored: StoredSession) -> StoredSession {
        var copy = stored
        copy.profile = profile(stored.profile)
        return copy
    }

    static func session(_ session: Session) -> Session {
        var copy = session
        copy.profile = session.profile.map(profile)
        return copy
    }

    static func state(_ state: RegState) -> RegState {
        switch state {
        case .active(let session): .active(self.session(session))
        case .awaitingConfirmation(let profile): .awaitingConfirmation(self.profile(profile))
        case .authenticating(let method): .authenticating(method.withoutPersonalData)
        case .unsettled, .registrationRequired, .failed: state
        }
    }

    static func status(_ status: StoredTokenStatus) -> StoredTokenStatus {
        switch status {
        case .valid(let stored): .valid(self.stored(stored))
        case .expired(let stored): .expired(self.stored(stored))
        case .nothing, .corrupt, .unreadable, .boundElsewhere: status
        }
    }

    static func event(_ event: MachineEvent) -> MachineEvent {
        switch event {
        case .storedTokensInspected(let status): .storedTokensInspected(self.status(status))
        case .renewalSucceeded(let stored): .renewalSucceeded(self.stored(stored))
        case .renewalFailed(let failure, let stored): .renewalFailed(failure, stored: stored.map(self.stored))
        case .registrationRequested(let method): .registrationRequested(method.withoutPersonalData)
        case .authenticated(let stored): .authenticated(self.stored(stored))
        case .registrationConfirmed(let stored): .registrationConfirmed(self.stored(stored))
        case .hostTokenAccepted(let stored): .hostTokenAccepted(self.stored(stored))
        case .launched, .nonNativeTokenInstalled, .renewalRequested, .authorizationIssued,
             .credentialsSubmitted, .registrationFailed, .confirmationRequested, .retryRequested, .logoutRequested,
             .logoutRefused, .loggedOut, .forcedLogout, .clearStateRequested, .credentialsCleared, .hostTokenSubmitted,
             .hostTokenRefused, .securityTokenRenewed, .pendingLoginResumed, .clockOffsetObserved:
            event
        }
    }
}
