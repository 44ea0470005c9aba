import Foundation

/// Why renewing the access token failed: the typed reason of an **Error E**. Recoverable failures keep the session
/// and its data (it goes offline); final ones end it (<doc:OfflineRules>).
public enum RenewalFailure: Error, Sendable, Equatable {
    /// No answer or no usable answer from the provider; the session stays active and offline.
    case transient(TransientIssue)
    /// The provider explicitly refused to renew (`invalid_grant`): the refresh token is dead, storage is cleared.
    case denied(reason: String)
    /// Offline, and every token including the refresh token has expired: the client logs out on its own.
    case credentialsExhausted
    /// Nothing to renew with: no refresh token is stored.
    case noRefreshToken
    /// The stored credentials could not be read or written; the detail is the store's reason. Recoverable: the
    /// session and whatever is stored are kept, and a later attempt may succeed.
    case storage(String)
    /// The backend ended the session (`403 FORCED_LOGOUT`); local data is cleared.
    case forcedLogout
    /// Host mode: the backend security token was rejected or expired, and RegState does not renew by itself. The host
    /// renews with its SSO and calls ``RegStateService/updateToken(idToken:)`` (or reports a transient issue or a
    /// denial). Sent once per expiry however many requests failed; the session stays, requests wait.
    case awaitingHost
    /// The session's tokens are DPoP-bound but the installation's key cannot be read (torn, wrong curve, missing);
    /// `reason` says what. Final: the tokens are useless without the key, so storage is cleared and the user
    /// registers again (a new key), instead of a loop of refused renewals.
    case dpopKeyUnavailable(reason: String)
    /// The refresh answer's ID token failed validation (OIDC Core 12.2 / 3.1.3.7); the reason names the check
    /// (an ``IDTokenError`` case), never the token. Recoverable: nothing was stored, the session and its tokens stay.
    case invalidRefreshedIDToken(reason: String)
    /// A renewal started earlier never stored its answer (the process was killed or suspended after sending the
    /// grant), and the provider has now refused the refresh token it presented: it had rotated it and, with reuse
    /// detection, revoked the session. `reason` is the provider's code. Final, like ``denied(reason:)``; a host avoids
    /// it by finishing renewals in a background task, or with a provider's refresh-token reuse grace period.
    case interruptedRenewalRefused(reason: String)

    /// Whether the session survives this failure: a transient provider failure or a local storage failure.
    public var isRecoverable: Bool {
        switch self {
        case .transient, .storage, .awaitingHost, .invalidRefreshedIDToken: true
        case .denied, .credentialsExhausted, .noRefreshToken, .forcedLogout, .interruptedRenewalRefused,
             .dpopKeyUnavailable: false
        }
    }

    /// A stable, machine-readable code for the reason; never personal data or token material.
    public var reasonCode: String {
        if case .transient(let issue) = self { return issue.reasonCode }
        return SnakeCase.tag(of: self)
    }
}

extension RenewalFailure: LocalizedError {
    /// A sentence for people; never contains a token.
    public var errorDescription: String? {
        switch self {
        case .transient(.noInternet): "The session could not be renewed: no connection. Working offline."
        case .transient(.ssoUnspecifiedIssue): "The session could not be renewed: the sign-in service had a problem. Working offline."
        case .denied(let reason): "The sign-in service refused to renew the session (\(reason)). Please sign in again."
        case .credentialsExhausted: "The session expired while offline. Please sign in again."
        case .noRefreshToken: "The session expired and cannot be renewed. Please sign in again."
        case .storage(let reason):
            "The stored session could not be read (\(reason)); it was kept. The next call that needs it (renewSession, validAccessToken or start) reads it again."
        case .forcedLogout: "The session was ended by the server. Please sign in again."
        case .awaitingHost: "The session with the server expired; waiting for the app to renew it."
        case .dpopKeyUnavailable(let reason):
            "The session is bound to this device's DPoP key, which cannot be read (\(reason)). Please sign in again."
        case .interruptedRenewalRefused(let reason):
            "An earlier renewal was interrupted before its answer was saved, and the sign-in service has since ended the session (\(reason)). Please sign in again."
        case .invalidRefreshedIDToken(let reason):
            "The session could not be renewed: the sign-in service sent an invalid ID token (\(reason)). The session is kept."
        }
    }
}
