import Foundation

/// Every write of the credentials record: provisional, confirmed, renewed, cleared.
extension TokenService {
    /// Installs the agreed non-native token (Active **A**).
    package func installNonNativeToken(_ token: String) throws(StoreError) {
        try save(bound(StoredCredentials(stage: .nonNative, accessToken: token)))
    }

    /// Stores freshly issued tokens as provisional (**G**), with the thumbprint of their DPoP key when they are bound.
    @discardableResult
    package func storeProvisional(_ tokens: TokenResponse, registrationType: RegistrationType, profile: Profile,
                                  dpopThumbprint: String? = nil) throws(StoreError) -> StoredSession {
        let now = tokens.receivedAt ?? clock.now()
        let session = StoredSession(
            registrationType: registrationType, expiresAt: tokens.expiresAt(from: now) ?? now.addingTimeInterval(assumedLifetime),
            refreshExpiresAt: tokens.refreshExpiresIn.map { RecordedTime.expiry(after: $0, from: now) }, profile: profile)
        var credentials = StoredCredentials(
            stage: .provisional, registrationType: registrationType, profile: profile, idToken: tokens.idToken,
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: session.expiresAt,
            refreshExpiresAt: session.refreshExpiresAt, tokenType: tokens.tokenType)
        credentials.issuedAt = now
        credentials.dpopThumbprint = tokens.isDPoPBound ? dpopThumbprint : nil
        credentials.sessionID = newSessionID()
        try save(bound(credentials))
        owned.session = credentials.sessionID
        owned.provisional = credentials.sessionID
        return session
    }

    /// Promotes the provisional tokens to confirmed, with the backend's security token when there is one, its lifetime
    /// counted from `securityTokenReceivedAt` (default now); `nil` without provisional tokens of this configuration.
    @discardableResult
    package func confirm(securityToken: String? = nil, securityTokenLifetime: TimeInterval? = nil,
                         securityTokenReceivedAt: Date? = nil) throws(StoreError) -> StoredSession? {
        guard var credentials = try readRecord(), credentials.stage == .provisional, let session = credentials.summary else {
            return nil
        }
        credentials.stage = .confirmed
        credentials.securityToken = securityToken
        let received = securityTokenReceivedAt ?? clock.now()
        credentials.securityTokenExpiresAt = securityTokenLifetime.map { RecordedTime.expiry(after: $0, from: received) }
        try save(credentials)
        owned.session = credentials.sessionID
        owned.provisional = nil
        return session
    }

    /// Stores the result of a refresh-token grant over `record`, the record the renewal read under the store's lock
    /// (with a ``RejectionHold`` when `forRejection`), and returns it; `nil` when `record` is not a confirmed
    /// session's. Holding that lock makes it the compare-and-swap that keeps a renewal from resurrecting a session a
    /// logout ended. A rotated refresh token is written in the same write as the new access token.
    package func storeRenewed(_ tokens: TokenResponse, profile: Profile?, over record: StoredCredentials,
                              forRejection: Bool = false) throws(StoreError) -> StoredCredentials? {
        guard record.stage == .confirmed else { return nil }
        var credentials = record
        let now = tokens.receivedAt ?? clock.now()
        credentials.accessToken = tokens.accessToken
        credentials.accessTokenHold = forRejection ? .after(record.accessTokenHold, at: clock.now()) : nil
        credentials.accessTokenBackoff = nil
        credentials.accessTokenBackoffIssue = nil
        credentials.tokenType = tokens.tokenType
        credentials.expiresAt = tokens.expiresAt(from: now) ?? now.addingTimeInterval(assumedLifetime)
        credentials.issuedAt = now
        credentials.renewalStartedAt = nil
        credentials.keepRefreshToken(of: tokens, at: now)
        if let idToken = tokens.idToken { credentials.idToken = idToken }
        if let profile { credentials.profile = profile }
        try save(credentials)
        return credentials
    }

    /// Replaces the stored profile with `profile` (Check Registration's), the issuer kept the ID token's: whether
    /// anything changed; `nil` when the stored credentials are not (or no longer) that user's confirmed ones.
    package func refreshProfile(_ profile: Profile) throws(StoreError) -> Bool? {
        guard var credentials = try readRecord(), credentials.stage == .confirmed,
              let stored = credentials.profile, stored.subject == profile.subject else { return nil }
        var refreshed = profile
        refreshed.issuer = stored.issuer
        guard refreshed != stored else { return false }
        credentials.profile = refreshed
        try save(credentials)
        return true
    }

    /// A new session's identifier (``StoredCredentials/sessionID``): 16 bytes from the crypto seam as a version-4
    /// UUID, not `UUID()`, so that a simulation replays it (docs/Internals-Services.md).
    func newSessionID() -> String {
        guard let data = try? crypto.randomBytes(count: 16), data.count == 16 else { return UUID().uuidString }
        var b = [UInt8](data)
        b[6] = b[6] & 0x0F | 0x40  // version 4
        b[8] = b[8] & 0x3F | 0x80  // RFC 9562 variant
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])).uuidString
    }

    /// Every record RegState writes in the secure store, for clear-state: the credentials (and a quarantined copy),
    /// the installation id, the grants' pending records, the DPoP keys, the ongoing-access record and its backoff, the
    /// first host-mode format.
    package static let everyRecordKey = [credentialsKey, quarantineKey, installationKey] + pendingGrantKeys
        + [DPoPKeyStore.recordKey, DPoPKeyStore.registrationRecordKey, ongoingAccessKey, ongoingAccessBackoffKey,
           legacyHostSessionKey]

    /// Clear-state: removes every record RegState writes (``everyRecordKey``) and returns the removed keys.
    package func clearEverything() throws(StoreError) -> [String] {
        var removed: [String] = []
        for key in Self.everyRecordKey where try store.data(forKey: key) != nil {
            try store.removeValue(forKey: key)
            removed.append(key)
        }
        seen = .some(nil)
        return removed
    }
}
