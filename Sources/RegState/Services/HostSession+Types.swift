import Foundation

/// Where a host-driven session stands.
public enum HostSessionPhase: Sendable, Equatable {
    /// No security token: the host has not called ``HostSession/updateToken(idToken:)`` yet, or the session ended.
    case signedOut
    /// A security token is stored and used.
    case active
    /// The backend rejected the security token; the host was told once (``HostSessionEvent/tokenExpired``) and
    /// authenticated requests are held until it answers.
    case awaitingHost
    /// The host could not renew (``HostSession/notifyTokenRenewalTransientIssue(_:)``): the session and its data stay,
    /// requests that needed a new token fail with ``HostSessionError/offline(_:)``.
    case offline(TransientIssue)
}

/// What a host-driven session tells the host app.
public enum HostSessionEvent: Sendable, Equatable {
    /// The security token was exchanged and stored: the session is active.
    case active
    /// The backend rejected the security token: renew with the SSO and call ``HostSession/updateToken(idToken:)``,
    /// or answer with ``HostSession/notifyTokenRenewalTransientIssue(_:)`` or ``HostSession/logout(_:)``. Sent once
    /// per expiry, however many requests failed.
    case tokenExpired
    /// The host reported a transient issue: the session stays, offline.
    case offline(TransientIssue)
    /// The session ended and local data was cleared.
    case loggedOut(HostLogoutReason)
}

/// Why a host-driven session ends (seed 000's precedence rules).
public enum HostLogoutReason: String, Sendable, Equatable, Codable {
    /// The user logged out: allowed only online (the backend installation is deleted first).
    case userRequested
    /// The SSO explicitly refused to renew: allowed only online.
    case ssoDenied
    /// Every token expired while offline: on-phone data is discarded without a call to the backend.
    case allTokensExpiredOffline
    /// The backend ended this installation's session (`403 FORCED_LOGOUT`).
    case forcedLogout
}

/// Why a host-driven session call failed. Never contains token material.
public enum HostSessionError: Error, Sendable, Equatable {
    /// No session: ``HostSession/updateToken(idToken:)`` has not succeeded, or the session ended.
    case noSession
    /// The ID token failed a validation rule (the same rules as registration).
    case invalidIDToken(IDTokenError)
    /// The backend did not accept the ID token.
    case backendRejectedIDToken
    /// `403 TOO_MANY_REGISTERED_DEVICES`: the user's device limit is reached.
    case tooManyRegisteredDevices
    /// `403 MAX_NUMBER_SECURITY_TOKEN`: this installation holds as many security tokens as allowed.
    case maxSecurityTokens
    /// The backend ended the session (`403 FORCED_LOGOUT`); local data was cleared.
    case forcedLogout
    /// No new token could be had now; the session stays, offline, with its data.
    case offline(TransientIssue)
    /// The request was rejected again with the token renewed for it; it is not renewed again for this failure
    /// until the backoff has passed.
    case rejectedAfterRenewal
    /// The session ended while the request waited for a new token.
    case loggedOut(HostLogoutReason)
    /// Logout needs a connection (seed 000): nothing was changed.
    case logoutNeedsConnection
    /// Another failure of the provider or backend, described without token material.
    case unexpected(String)
}

extension HostSessionError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .noSession: "No session is active."
        case .invalidIDToken(let error): "The identity token was refused: \(error.localizedDescription)"
        case .backendRejectedIDToken: "The server did not accept the identity token."
        case .tooManyRegisteredDevices: "Too many devices are registered to this account."
        case .maxSecurityTokens: "This device has too many open sessions with the server."
        case .forcedLogout: "The server ended this device's session."
        case .offline(.noInternet): "You are offline; the session is kept."
        case .offline(.ssoUnspecifiedIssue): "The sign-in service is not answering; the session is kept."
        case .rejectedAfterRenewal: "The server rejected the request again after the token was renewed."
        case .loggedOut(let reason): "The session ended (\(reason.rawValue))."
        case .logoutNeedsConnection: "Logout needs a connection: nothing was changed."
        case .unexpected(let detail): "The session could not be renewed (\(detail))."
        }
    }
}

/// The host session's stored record: the ID token the host pushed, the backend security token bought with it.
struct HostCredentials: Codable, Sendable {
    var idToken: String
    var securityToken: String
    var securityTokenExpiresAt: Date
    /// The issuer the session is bound to; `nil` in records written before sessions were bound.
    var issuer: String?
    /// The client id the session is bound to; `nil` in records written before sessions were bound.
    var clientID: String?
}
