import Foundation

/// The stored credentials at one moment, decoded once: what one decision (hand out a token, renew, log out,
/// confirm) needs to know, so that its facts all come from the same record.
///
/// It holds token material and lives only as long as the decision; it is never logged (its description is redacted).
package struct TokenSnapshot: Sendable, CustomStringConvertible {
    /// The access token.
    package var accessToken: String
    /// When the access token expires; `nil` when the provider did not say and nothing was assumed (non-native).
    package var expiresAt: Date?
    /// Whether the access token was usable beyond the grace period when the snapshot was taken.
    package var isUsable: Bool
    /// The refresh token, when there is one.
    package var refreshToken: String?
    /// The ID token, when there is one.
    package var idToken: String?
    /// The backend security token, when one is stored and was not expired when the snapshot was taken.
    package var securityToken: String?
    /// The non-secret summary, when the credentials belong to a registration.
    package var session: StoredSession?
    /// When a renewal with this refresh token started and never stored its answer (see
    /// ``StoredCredentials/renewalStartedAt``); `nil` when none is pending.
    package var renewalStartedAt: Date?

    init(_ credentials: StoredCredentials, isUsable: Bool, securityTokenUsable: Bool) {
        accessToken = credentials.accessToken
        expiresAt = credentials.expiresAt
        self.isUsable = isUsable
        refreshToken = credentials.refreshToken
        idToken = credentials.idToken
        securityToken = securityTokenUsable ? credentials.securityToken : nil
        session = credentials.summary
        renewalStartedAt = credentials.renewalStartedAt
    }

    /// The usable access token, or `nil` when it has expired (or is within the grace period).
    package var usableAccessToken: String? { isUsable ? accessToken : nil }

    /// Redacted: a snapshot holds tokens.
    package var description: String { "TokenSnapshot(usable: \(isUsable), session: \(session != nil))" }
}
