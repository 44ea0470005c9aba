import Foundation

/// Why an authorized request, a host-mode call or the backend security token failed. Never contains token material.
///
/// ``isTransient`` says whether trying again later may succeed (the session is kept).
public enum AuthorizationError: Error, Sendable, Equatable {
    /// No session is active (nothing to authorize with).
    case noSession
    /// The call is for host mode (``SessionSource/host``) and the service renews by itself, or the other way round.
    case wrongSessionSource(SessionSource)
    /// The ID token failed a validation rule (the same rules as registration).
    case invalidIDToken(String)
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
    /// The request was rejected again with the token renewed for it. That token is not renewed again for this
    /// failure until a backoff on the injected clock has passed (30 s, doubling to 15 min).
    case rejectedAfterRenewal
    /// The session ended while the request waited for a new token.
    case loggedOut
    /// Logout needs a connection: nothing was changed.
    case logoutNeedsConnection
    /// Another failure of the provider, the backend or the store, described without token material.
    case unexpected(String)

    /// Whether trying again later may succeed while the session is kept.
    public var isTransient: Bool {
        switch self {
        case .offline, .rejectedAfterRenewal, .logoutNeedsConnection: true
        default: false
        }
    }
}

extension AuthorizationError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .noSession: "No session is active."
        case .wrongSessionSource(let source):
            source == .host ? "This call is for apps that renew the session themselves; the host renews this one."
                : "This call is for host-driven sessions; RegState renews this one by itself."
        case .invalidIDToken(let reason): "The identity token was refused: \(reason)"
        case .backendRejectedIDToken: "The server did not accept the identity token."
        case .tooManyRegisteredDevices: "Too many devices are registered to this account."
        case .maxSecurityTokens: "This device has too many open sessions with the server."
        case .forcedLogout: "The server ended this device's session."
        case .offline(.noInternet): "You are offline; the session is kept."
        case .offline(.ssoUnspecifiedIssue): "The sign-in service is not answering; the session is kept."
        case .rejectedAfterRenewal: "The server rejected the request again after the token was renewed."
        case .loggedOut: "The session ended."
        case .logoutNeedsConnection: "Logout needs a connection: nothing was changed."
        case .unexpected(let detail): "The request could not be authorized (\(detail))."
        }
    }
}

/// Why a host-driven session ends (the lifecycle design's precedence rules), for ``RegStateService/logout(_:)``.
public enum HostLogoutReason: String, Sendable, Equatable, Codable, CaseIterable {
    /// The user logged out: allowed only online (the provider and backend are told first).
    case userRequested
    /// The host's SSO explicitly refused to renew: the session ends, storage is cleared.
    case ssoDenied
    /// Every token expired while offline: on-device data is discarded without a call.
    case allTokensExpiredOffline
}
