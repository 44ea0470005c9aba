import Foundation

/// The backend security token's life in the credentials record (both modes) and the host-mode record.
extension TokenService {
    /// The store key the first host-mode implementation (2026-11) kept its record under; read once and migrated.
    static let legacyHostSessionKey = "host-session"

    /// Stores a host-mode session in the credentials record (confirmed, ``RegistrationType/hostSSO``): the ID token
    /// the host pushed, its profile and the security token bought with it, whose expiry is the session's.
    func storeHostSession(idToken: String, profile: Profile, securityToken: String, expiresAt: Date)
        throws(StoreError) -> StoredSession
    {
        // A host's renewed token keeps the session it renews; a first one begins a session.
        let session = (try? readRecord())?.sessionID ?? newSessionID()
        var credentials = StoredCredentials(
            stage: .confirmed, registrationType: .hostSSO, profile: profile, idToken: idToken, accessToken: "",
            refreshToken: nil, expiresAt: expiresAt, securityToken: securityToken, securityTokenExpiresAt: expiresAt,
            issuer: binding?.issuer, clientID: binding?.clientID)
        credentials.sessionID = session
        try save(credentials)
        owned.session = session
        return StoredSession(registrationType: .hostSSO, expiresAt: expiresAt, profile: profile)
    }

    /// Stores a renewed security token (with its ``RejectionHold`` when `forRejection`) and returns `true`, only if
    /// the stored one is still `replaced`: a logout or another renewal meanwhile wins.
    func storeSecurityToken(_ grant: SecurityTokenGrant, replacing replaced: String?, forRejection: Bool)
        throws(StoreError) -> Bool
    {
        guard var credentials = try readRecord(), credentials.stage == .confirmed, credentials.securityToken == replaced else {
            return false
        }
        credentials.securityToken = grant.securityToken
        credentials.securityTokenExpiresAt = RecordedTime.expiry(after: grant.expiresIn, from: clock.now())
        credentials.securityTokenHold = forRejection ? .after(credentials.securityTokenHold, at: clock.now()) : nil
        credentials.securityTokenBackoff = nil
        credentials.securityTokenBackoffIssue = nil
        if credentials.registrationType == .hostSSO { credentials.expiresAt = credentials.securityTokenExpiresAt }
        try save(credentials)
        return true
    }

    /// Moves a record of the first host-mode implementation (`host-session`: ID token, security token, expiry) into
    /// the credentials record, when there is no credentials record; `true` when one was moved.
    func migrateLegacyHostSession() -> Bool {
        guard (try? readRecord()) == nil, let data = try? store.data(forKey: Self.legacyHostSessionKey) else { return false }
        guard let legacy = try? JSONDecoder().decode(LegacyHostCredentials.self, from: data),
              RecordedTime.contains(legacy.securityTokenExpiresAt),
              let profile = try? ProfileService().profile(fromIDToken: legacy.idToken) else { return false }
        // Another configuration's session is not this one's to adopt.
        if let binding, binding.mismatch(issuer: legacy.issuer, clientID: legacy.clientID, idToken: legacy.idToken) != nil {
            return false
        }
        guard (try? storeHostSession(idToken: legacy.idToken, profile: profile, securityToken: legacy.securityToken,
                                     expiresAt: legacy.securityTokenExpiresAt)) != nil else { return false }
        try? store.removeValue(forKey: Self.legacyHostSessionKey)
        return true
    }
}

/// The record the first host-mode implementation stored under `host-session` (JSONEncoder defaults).
struct LegacyHostCredentials: Codable, Sendable {
    var idToken: String
    var securityToken: String
    var securityTokenExpiresAt: Date
    /// The issuer the session was bound to (written from 2026-11-24 on).
    var issuer: String?
    /// The client id the session was bound to.
    var clientID: String?
}
