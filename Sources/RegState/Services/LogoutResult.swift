import Foundation

/// What a logout did at the provider. Local credentials are cleared in every case; when the provider cannot be reached
/// at all, logout does not happen (only online) and ``RegStateServiceError/offline(_:)`` is thrown instead.
public enum LogoutResult: Sendable, Equatable {
    /// The provider revoked the refresh token (RFC 7009): it can no longer be used anywhere.
    case revoked
    /// The provider offers no revocation endpoint (neither in OpenID discovery nor in RFC 8414 metadata): the refresh
    /// token was forgotten here but stays valid at the provider until it expires.
    case revocationUnsupported
    /// The provider answered the revocation request with an error (the reason; never a token): the refresh token may
    /// still be valid at the provider.
    case revocationRefused(String)
    /// No refresh token was stored, so there was nothing to revoke.
    case nothingToRevoke

    /// The provider's reason for a refused revocation; `nil` otherwise.
    public var detail: String? {
        if case .revocationRefused(let reason) = self { return reason }
        return nil
    }

    /// A stable name for scripts and JSON: `revoked`, `unsupported`, `refused`, `nothingToRevoke`.
    public var name: String {
        switch self {
        case .revoked: "revoked"
        case .revocationUnsupported: "unsupported"
        case .revocationRefused: "refused"
        case .nothingToRevoke: "nothingToRevoke"
        }
    }
}

extension LogoutResult: CustomStringConvertible {
    /// A sentence for people; never contains a token.
    public var description: String {
        switch self {
        case .revoked:
            "the provider revoked the refresh token and local credentials were cleared."
        case .revocationUnsupported:
            "local credentials were cleared; the provider offers no revocation, so the refresh token stays valid there until it expires."
        case .revocationRefused(let reason):
            "local credentials were cleared; the provider refused to revoke the refresh token (\(reason)), so it may stay valid there."
        case .nothingToRevoke:
            "local credentials were cleared; no refresh token was stored, so there was nothing to revoke."
        }
    }
}
