import Foundation
import RegState

/// What an app can observe about ongoing access, through ``OngoingAccessService/events()``. No case carries tokens.
public enum OngoingAccessEvent: Sendable, Equatable {
    /// The user consented and access is authorized (first consent, or again after expiry).
    case authorized(scope: OngoingAccessScope)
    /// Access was restored from a stored token without the user; `refreshed` says whether the token changed.
    case restored(refreshed: Bool)
    /// The access token was refreshed; the refresh token's expiry did not move.
    case refreshed(accessTokenExpiresAt: Date)
    /// The refresh token has expired; the user is being sent through consent again (auto-recovery on).
    case reconsentNeeded
    /// The refresh token has expired and auto-recovery is off: the call failed with ``OngoingAccessError/oAuthTokenExpired``.
    case expired
    /// An authorization or data call failed; the state before it is kept.
    case failed(OngoingAccessError)

    /// A short name for logs and the CLI: `authorized`, `restored`, `refreshed`, `reconsent-needed`, `expired`, `failed`.
    public var name: String {
        switch self {
        case .authorized: "authorized"
        case .restored: "restored"
        case .refreshed: "refreshed"
        case .reconsentNeeded: "reconsent-needed"
        case .expired: "expired"
        case .failed: "failed"
        }
    }
}

/// Where ongoing access stands in one ``OngoingAccessService``.
public enum OngoingAccessState: Sendable, Equatable {
    /// Nothing authorized yet in this service.
    case idle
    /// An authorization is running (consent, refresh or session).
    case authorizing
    /// A session is open.
    case authorized(OngoingAccessSession)
    /// The refresh token expired and auto-recovery is off: consent is needed.
    case expired
}
