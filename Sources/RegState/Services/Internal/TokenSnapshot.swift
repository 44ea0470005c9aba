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
    /// The stored security token whatever its expiry: the one a renewal replaces.
    package var storedSecurityToken: String?
    /// Whether the tokens are bound to the installation's DPoP key (sent as `DPoP`, with a proof).
    package var isDPoPBound: Bool
    /// The thumbprint of the key the tokens are bound to (``StoredCredentials/dpopThumbprint``), when recorded.
    package var dpopThumbprint: String?
    /// When a renewal with this refresh token started and never stored its answer (see
    /// ``StoredCredentials/renewalStartedAt``); `nil` when none is pending.
    package var renewalStartedAt: Date?
    /// The access token's rejection hold (``StoredCredentials/accessTokenHold``).
    package var accessTokenHold: RejectionHold?
    /// The stored security token's rejection hold (``StoredCredentials/securityTokenHold``).
    package var securityTokenHold: RejectionHold?

    init(_ credentials: StoredCredentials, isUsable: Bool, securityTokenUsable: Bool) {
        accessToken = credentials.accessToken
        expiresAt = credentials.expiresAt
        self.isUsable = isUsable
        refreshToken = credentials.refreshToken
        idToken = credentials.idToken
        securityToken = securityTokenUsable ? credentials.securityToken : nil
        session = credentials.summary
        storedSecurityToken = credentials.securityToken
        isDPoPBound = credentials.isDPoPBound
        dpopThumbprint = credentials.dpopThumbprint
        renewalStartedAt = credentials.renewalStartedAt
        accessTokenHold = credentials.accessTokenHold
        securityTokenHold = credentials.securityTokenHold
    }

    /// Whether a server's rejection of `token` is held at `now` (not to be answered with a renewal): the stored token
    /// of that kind is `token` and its ``RejectionHold`` has not passed.
    func holdsRejection(of token: String, carrier: TokenCarrier, at now: Date) -> Bool {
        switch carrier {
        case .accessToken: accessToken == token && accessTokenHold?.holds(at: now) == true
        case .securityToken: storedSecurityToken == token && securityTokenHold?.holds(at: now) == true
        }
    }

    /// Redacted: a snapshot holds tokens.
    package var description: String { "TokenSnapshot(usable: \(isUsable), session: \(session != nil))" }
}
