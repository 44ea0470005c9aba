import Foundation

/// The credentials record, stored as ONE secure-store value so that every change (a rotation replaces the refresh
/// token, the access token and the expiry together) is a single atomic write. Written by ``encoded``, read by
/// ``read(_:)`` in every form any version wrote. Its description is redacted: it holds tokens.
package struct StoredCredentials: Sendable, Equatable, RedactedDescription {
    /// Where the credentials stand.
    package enum Stage: String, Sendable {
        /// Issued by the provider, awaiting the user's confirmation (state **G**).
        case provisional
        /// Confirmed by the user and registered.
        case confirmed
        /// The agreed non-native token (Active **A**).
        case nonNative
    }

    package var stage: Stage
    package var registrationType: RegistrationType?
    package var profile: Profile?
    package var idToken: String?
    package var accessToken: String
    package var refreshToken: String?
    package var expiresAt: Date?
    /// When the access token was received: with ``expiresAt``, the lifetime that bounds the renewal grace
    /// (``TokenService/grace(for:)``).
    package var issuedAt: Date?
    package var refreshExpiresAt: Date?
    package var securityToken: String?
    package var securityTokenExpiresAt: Date?
    /// The access token's type as issued: `DPoP` for tokens bound to the installation's key; `nil` (older records)
    /// is `Bearer`.
    package var tokenType: String?
    /// The RFC 7638 thumbprint of the DPoP key the tokens are bound to: the key record is a separate store value that
    /// another process's registration replaces, so a bound token is sent only with the key this names.
    package var dpopThumbprint: String?
    /// When a refresh grant was sent and its answer not yet stored (written under the store's lock before the grant,
    /// removed with its result): still set at the next renewal, the previous one was interrupted.
    package var renewalStartedAt: Date?
    /// The issuer the credentials were issued by (``CredentialBinding``); `nil` in records from before binding.
    package var issuer: String?
    package var clientID: String?
    /// The access token's ``RejectionHold``, when it was renewed for a rejection.
    package var accessTokenHold: RejectionHold?
    /// The same for the backend security token.
    package var securityTokenHold: RejectionHold?
    /// The access token's transient backoff (``RenewalHoldPolicy``), removed by a renewal that succeeds.
    package var accessTokenBackoff: RejectionHold?
    /// The transient issue of the failure that started ``accessTokenBackoff``: what a held call answers with.
    package var accessTokenBackoffIssue: TransientIssue?
    /// The same for the backend security token's exchange.
    package var securityTokenBackoff: RejectionHold?
    /// The transient issue of the failure that started ``securityTokenBackoff``.
    package var securityTokenBackoffIssue: TransientIssue?
    /// Which registration session the record belongs to (random, kept by every write of that session): a session's
    /// end compares it under the store's lock, so a process never removes another's session.
    package var sessionID: String?

    /// The record as `JSONEncoder` wrote it (sorted keys, dates as seconds since 1970, slashes escaped, absent members
    /// left out): the bytes every version wrote, read by ``read(_:)``.
    var encoded: Data {
        var out = JSONText(escapesSlashes: true)
        _ = out.value(.members([
            "access_token": accessToken, "access_token_backoff": accessTokenBackoff,
            "access_token_backoff_issue": accessTokenBackoffIssue, "access_token_hold": accessTokenHold,
            "client_id": clientID, "dpop_jkt": dpopThumbprint, "expires_at": expiresAt, "id_token": idToken,
            "issued_at": issuedAt, "issuer": issuer, "profile": profile, "refresh_expires_at": refreshExpiresAt,
            "refresh_token": refreshToken, "registration_type": registrationType, "renewal_started_at": renewalStartedAt,
            "security_token": securityToken, "security_token_backoff": securityTokenBackoff,
            "security_token_backoff_issue": securityTokenBackoffIssue, "security_token_expires_at": securityTokenExpiresAt,
            "security_token_hold": securityTokenHold, "session_id": sessionID, "stage": stage, "token_type": tokenType,
        ]))
        return out.data
    }

    /// The non-secret summary events carry; `nil` for the non-native token, which has no registration.
    package var summary: StoredSession? {
        guard let registrationType, let profile, let expiresAt else { return nil }
        return StoredSession(registrationType: registrationType, expiresAt: expiresAt,
                             refreshExpiresAt: refreshExpiresAt, profile: profile)
    }

    /// Takes the refresh token `tokens` rotated to, received at `now`; an answer without one keeps the old (the
    /// provider did not rotate).
    mutating func keepRefreshToken(of tokens: TokenResponse, at now: Date) {
        guard let refresh = tokens.refreshToken else { return }
        refreshToken = refresh
        refreshExpiresAt = tokens.refreshExpiresIn.map { RecordedTime.expiry(after: $0, from: now) }
    }

    /// Whether the tokens are bound to the installation's DPoP key: a bound token is never sent as `Bearer`.
    package var isDPoPBound: Bool { tokenType == "DPoP" }

    /// The access token as a credential, its scheme from this record: bearer, or DPoP with `key` (`nil` when the
    /// token is bound and no key is at hand).
    func accessCredential(key: DPoPKey?) -> AccessCredential? {
        let scheme: AccessCredential.Scheme
        if isDPoPBound {
            guard let key else { return nil }
            scheme = .dpop(key)
        } else {
            scheme = .bearer
        }
        return AccessCredential(token: accessToken, scheme: scheme, expiresAt: expiresAt, carrier: .accessToken,
                                signIn: SignInAssurance(idToken: idToken))
    }

    package var description: String {
        "StoredCredentials(stage: \(stage.rawValue), tokens: redacted)"
    }
}
