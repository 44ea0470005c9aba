import Foundation

/// Why no access token can be handed out.
public enum AccessTokenError: Error, Sendable, Equatable {
    /// No session is active.
    case noSession
    /// The session is host-driven (``SessionSource/host``): it has no provider access token, only the backend
    /// security token (``RegStateService/securityToken()``).
    case hostDriven
}

extension AccessTokenError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .noSession: "No session is active."
        case .hostDriven: "The host renews this session: it has a security token, no access token."
        }
    }
}
