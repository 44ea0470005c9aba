import Foundation

/// How the simulated token endpoint answers a refresh token it will not renew (revoked, reused, expired, unknown).
public enum RefreshRefusalStyle: Sendable, Equatable {
    /// RFC 6749 §5.2: `400 {"error": "invalid_grant", "error_description": ...}`, as most providers answer.
    case oauthError
    /// The status alone with an empty body, as Glewlwyd answers a retired refresh token (`400`, no body): a client
    /// cannot read a reason and must decide what such an answer means.
    case bareStatus(Int)
}
