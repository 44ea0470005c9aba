import Foundation

/// Why a host-driven session ends (the lifecycle design's precedence rules), for ``RegStateService/logout(_:)``.
public enum HostLogoutReason: String, Sendable, Equatable, Codable, CaseIterable {
    /// The user logged out: allowed only online (the provider and backend are told first).
    case userRequested
    /// The host's SSO explicitly refused to renew: the session ends, storage is cleared.
    case ssoDenied
    /// Every token expired while offline: on-device data is discarded without a call.
    case allTokensExpiredOffline
}
