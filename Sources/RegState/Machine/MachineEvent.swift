import Foundation

/// A fact the engine learned: the transition function's input and the journal's unit. It carries no token material,
/// so a journal can be shipped with a bug report; time enters only through the events' dates.
package enum MachineEvent: Sendable, Equatable {
    /// The service started; `isNative` is what ``PlatformService`` reported.
    case launched(isNative: Bool)
    /// The agreed token for non-native platforms was installed.
    case nonNativeTokenInstalled
    /// The token service looked at the stored credentials.
    case storedTokensInspected(StoredTokenStatus)
    /// Something asked for a renewal of an active session.
    case renewalRequested(RenewalTrigger)
    /// The refresh-token grant succeeded and the new credentials are stored.
    case renewalSucceeded(StoredSession)
    /// The renewal failed; `stored` describes the credentials still stored, when any.
    case renewalFailed(RenewalFailure, stored: StoredSession?)
    /// The user chose a registration method on the registration page.
    case registrationRequested(RegistrationMethod)
    /// The login grant waits for the user: what to show (a URL, a code to approve) rides beside the event as a
    /// ``SecretInput``, never journaled.
    case authorizationIssued
    /// The user handed the grant what it waited for (a redirect, a code), or the app waits for an approval elsewhere.
    case credentialsSubmitted
    /// The provider authenticated the user; provisional tokens are stored and the profile decoded.
    case authenticated(StoredSession)
    /// Registration or authentication failed.
    case registrationFailed(RegistrationFailure)
    /// The user confirmed the profile.
    case confirmationRequested
    /// The backend registered the profile and installation; the tokens are confirmed.
    case registrationConfirmed(StoredSession)
    /// The user chose Retry on the confirmation page, or cancelled a pending login.
    case retryRequested
    /// The user asked to log out.
    case logoutRequested
    /// Logout was refused because the provider could not be reached; nothing changed.
    case logoutRefused(TransientIssue)
    /// The refresh token was revoked (when there was one) and local credentials cleared.
    case loggedOut
    /// The backend ended the session (`FORCED_LOGOUT`).
    case forcedLogout
    /// The user or developer asked to wipe all local state (the registration design's debug command).
    case clearStateRequested
    /// Stored credentials were removed after a final failure, a forced logout or a clear-state.
    case credentialsCleared
    /// The host app handed in an ID token (host mode, the lifecycle design's `updateToken`); the token itself travels beside the
    /// event as ``SecretInput/idToken(_:)`` and is never journaled.
    case hostTokenSubmitted
    /// The host's ID token was validated and exchanged for a backend security token, stored with the session.
    case hostTokenAccepted(StoredSession)
    /// The host's ID token was refused (a validation rule, the backend, a device or token limit) or could not be
    /// exchanged; nothing was stored.
    case hostTokenRefused(RegistrationFailure)
    /// The backend security token was renewed with the stored ID token (self mode) and stored.
    case securityTokenRenewed
    /// A social login begun before a relaunch (kept in the secure store, never here) was taken up again to finish it
    /// with the redirect that arrived after the relaunch.
    case pendingLoginResumed
    /// The device clock was found `seconds` off the provider's (positive: the device is behind), or back in step
    /// (zero); journaled once per significant change (``ClockOffsetSource/journalThreshold``). Changes no state.
    case clockOffsetObserved(seconds: Int, source: ClockOffsetSource)

    /// The event's case name, for journals, diagrams and rejections.
    package var name: String {
        switch self {
        case .launched: "launched"
        case .nonNativeTokenInstalled: "nonNativeTokenInstalled"
        case .storedTokensInspected: "storedTokensInspected"
        case .renewalRequested: "renewalRequested"
        case .renewalSucceeded: "renewalSucceeded"
        case .renewalFailed: "renewalFailed"
        case .registrationRequested: "registrationRequested"
        case .authorizationIssued: "authorizationIssued"
        case .credentialsSubmitted: "credentialsSubmitted"
        case .authenticated: "authenticated"
        case .registrationFailed: "registrationFailed"
        case .confirmationRequested: "confirmationRequested"
        case .registrationConfirmed: "registrationConfirmed"
        case .retryRequested: "retryRequested"
        case .logoutRequested: "logoutRequested"
        case .logoutRefused: "logoutRefused"
        case .loggedOut: "loggedOut"
        case .forcedLogout: "forcedLogout"
        case .clearStateRequested: "clearStateRequested"
        case .credentialsCleared: "credentialsCleared"
        case .hostTokenSubmitted: "hostTokenSubmitted"
        case .hostTokenAccepted: "hostTokenAccepted"
        case .hostTokenRefused: "hostTokenRefused"
        case .securityTokenRenewed: "securityTokenRenewed"
        case .pendingLoginResumed: "pendingLoginResumed"
        case .clockOffsetObserved: "clockOffsetObserved"
        }
    }
}

/// What the token service found in the secure store at launch.
package enum StoredTokenStatus: Sendable, Equatable {
    /// No confirmed credentials.
    case nothing
    /// Credentials exist but are damaged (not a credentials record); they were set aside, nothing else was touched.
    case corrupt(reason: String)
    /// The store could not be read (an I/O failure); nothing was moved, a later launch may read it.
    case unreadable(reason: String)
    /// Confirmed credentials whose access token is valid beyond the grace period.
    case valid(StoredSession)
    /// Confirmed credentials whose access token has expired or expires within the grace period.
    case expired(StoredSession)
    /// Credentials stored for another issuer or client than the configured one: not read, renewed, revoked or sent,
    /// and left as they are until a new registration or clear-state replaces them. Leads to Registration Required.
    case boundElsewhere(CredentialBindingMismatch)
}

/// Why a renewal of an active session was requested.
package enum RenewalTrigger: String, Sendable, Equatable {
    /// The access token expired (or is within its grace period) when the host asked for it.
    case expired
    /// The backend answered 401 to an authenticated request.
    case backendUnauthorized
    /// The backend security token expired before a request could use it (host mode).
    case securityTokenExpired
    /// The host asked explicitly.
    case host
}
