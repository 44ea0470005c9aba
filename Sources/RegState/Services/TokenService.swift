import Foundation

/// Keeps the user's tokens in the secure store, in one record (``StoredCredentials``): provisional, confirmed and
/// renewed; expiry with a grace period. An actor, so that read-modify-writes (a renewal landing while a logout
/// clears) cannot interleave.
package actor TokenService {
    package static let credentialsKey = "credentials"
    package static let installationKey = "installation_id"
    /// Where an unreadable credentials record is set aside, so that nothing is silently destroyed.
    package static let quarantineKey = "credentials.unreadable"
    /// The store key of the ongoing-access record (`RegStateOngoingAccess`), which a session's end removes.
    package static let ongoingAccessKey = "ongoing-access"
    /// The store key of ongoing access's transient backoff: a record of its own, so a hold written by one process
    /// never replaces a token another process stored.
    package static let ongoingAccessBackoffKey = "ongoing-access.backoff"

    let store: any SecureStore
    /// The last record decoded and the bytes it came from: the same bytes are not decoded again.
    private var decoded: (data: Data, credentials: StoredCredentials)?
    /// The record this service last read or wrote (`.some(nil)`: none, or not this configuration's); `nil` before
    /// its first read.
    var seen: StoredCredentials??
    /// What this service itself wrote or took up: a session's end, a failed or abandoned registration removes only
    /// these (``TokenService+Ownership.swift``).
    var owned = OwnedRecords()
    let clock: any RegStateClock
    let crypto: any CryptoProvider
    /// How long before `expires_at` a token already counts as expired, so it is not used as it dies.
    package let gracePeriod: TimeInterval
    /// The lifetime assumed when a provider omits `expires_in`.
    package let assumedLifetime: TimeInterval = 3600
    /// How long to wait for the store's lock before failing with ``StoreError/busy(waited:)``.
    package let lockTimeout: TimeInterval = defaultStoreLockTimeout
    /// The issuer and client the credentials written and read here are bound to; `nil` reads any record.
    package let binding: CredentialBinding?
    /// When a renewal that failed transiently may be tried again (``RenewalHoldPolicy``).
    package let holdPolicy: RenewalHoldPolicy

    package init(store: any SecureStore, clock: any RegStateClock = SystemClock(),
                crypto: any CryptoProvider = SystemCrypto(), gracePeriod: TimeInterval = 60,
                binding: CredentialBinding? = nil, holdPolicy: RenewalHoldPolicy = .standard) {
        self.binding = binding
        self.holdPolicy = holdPolicy
        self.store = store
        self.clock = clock
        self.crypto = crypto
        self.gracePeriod = gracePeriod
    }

    /// `body` under the store's exclusive lock; every read-modify-write that can race a renewal holds it.
    func withExclusiveAccess<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        try await withExclusiveAccess(orElse: { error throws(StoreError) in throw error }, body)
    }

    /// `body` under the store's lock (waited for at most ``lockTimeout``), released however `body` ends; what
    /// `unavailable` makes of the store's error when the lock cannot be taken. The one place a lease is taken.
    func withExclusiveAccess<T, E: Error>(
        isolation: isolated (any Actor)? = #isolation, orElse unavailable: (StoreError) async throws(E) -> T,
        _ body: () async throws(E) -> T
    ) async throws(E) -> T {
        let lease: any StoreLease
        do {
            lease = try await store.acquireExclusiveAccess(timeout: lockTimeout)
        } catch {
            return try await unavailable(error)
        }
        defer { lease.release() }
        return try await body()
    }

    // MARK: Reading

    /// What is stored, for the launch decision, and the access token of a record found expired, from the same read
    /// (a token stored meanwhile would be renewed twice). A damaged record is moved to ``quarantineKey``; provisional
    /// credentials are no session; an unreadable store is left as it is. No other key is touched.
    package func inspect() -> (status: StoredTokenStatus, expiredAccessToken: String?) {
        let data: Data?
        do {
            data = try storedData()
        } catch {
            return (.unreadable(reason: error.localizedDescription), nil)
        }
        var credentials: StoredCredentials?
        do throws(TokenServiceError) {
            if let data { credentials = try self.credentials(in: data) }
        } catch {
            switch error {
            case .corrupt:
                quarantine()
                return (.corrupt(reason: TokenServiceError.corrupt.errorDescription ?? "damaged"), nil)
            case .boundElsewhere(let mismatch):
                // Another configuration's credentials: not read, not moved, not removed.
                return (.boundElsewhere(mismatch), nil)
            }
        }
        let status = inspectRecord(credentials)
        guard case .expired = status else { return (status, nil) }
        return (status, credentials?.accessToken)
    }

    private func inspectRecord(_ credentials: StoredCredentials?) -> StoredTokenStatus {
        guard let credentials else { return .nothing }
        switch credentials.stage {
        case .provisional:
            // Not a session; whether it is abandoned (and removed) is decided under the store's lock
            // (``removeAbandonedProvisional(dpop:)``): another process may be confirming it.
            return .nothing
        case .nonNative:
            return .nothing
        case .confirmed:
            owned.session = credentials.sessionID
            guard let summary = credentials.summary else {
                quarantine()
                return .corrupt(reason: "the stored credentials are incomplete")
            }
            return isUsable(credentials) ? .valid(summary) : .expired(summary)
        }
    }

    /// The stored credentials as they are now, read once for one decision (so its facts cannot come from two
    /// records); `nil` when there are none or they cannot be read.
    package func snapshot() -> TokenSnapshot? {
        (try? readRecord()).map(snapshot(of:))
    }

    /// The record as this service last read or wrote it, without reading the store again (read now when it has
    /// seen none yet).
    package func lastSeenSnapshot() -> TokenSnapshot? {
        guard let seen else { return snapshot() }
        return seen.map(snapshot(of:))
    }

    /// ``snapshot()`` that throws when the store cannot be read now (a locked device, an I/O error), so an unreadable
    /// record is never taken for a missing session. A damaged or foreign record is `nil`.
    package func readSnapshot() throws(StoreError) -> TokenSnapshot? {
        try readRecord().map(snapshot(of:))
    }

    private func snapshot(of credentials: StoredCredentials) -> TokenSnapshot {
        TokenSnapshot(credentials, isUsable: isUsable(credentials),
                      securityTokenUsable: isUsable(credentials.securityTokenExpiresAt))
    }

    /// The credentials record, throwing only the store's own errors: `nil` when there is none, or it is damaged or
    /// bound to another configuration (the cases ``snapshot()`` also answers `nil` for).
    package func readRecord() throws(StoreError) -> StoredCredentials? {
        guard let data = try storedData() else { return nil }
        return try? credentials(in: data)
    }

    /// The summary of the stored credentials, when there are readable ones with a registration.
    package func storedSession() -> StoredSession? {
        snapshot()?.session
    }

    /// The grace before expiry at which the stored access token counts as expired: the configured grace, but at most
    /// half the lifetime granted, so a short-lived token (30 s against the 60 s default) is not renewed on every call.
    package func grace(for credentials: StoredCredentials) -> TimeInterval {
        guard let issuedAt = credentials.issuedAt, let expiresAt = credentials.expiresAt else { return gracePeriod }
        return min(gracePeriod, max(0, expiresAt.timeIntervalSince(issuedAt)) / 2)
    }

    /// Whether the stored access token is still usable beyond its renewal point, drawn per token inside the grace
    /// window (``RenewalHoldPolicy/renewalLead(grace:sessionID:expiresAt:)``).
    package func isUsable(_ credentials: StoredCredentials) -> Bool {
        guard let expiresAt = credentials.expiresAt else { return true }
        let lead = holdPolicy.renewalLead(grace: grace(for: credentials), sessionID: credentials.sessionID,
                                          expiresAt: expiresAt)
        return expiresAt.addingTimeInterval(-lead) > clock.now()
    }

    /// Whether a token expiring at `expiresAt` is still usable beyond the grace period.
    package func isUsable(_ expiresAt: Date?) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt.addingTimeInterval(-gracePeriod) > clock.now()
    }

    /// The installation identifier: random, created on first use, kept until clear-state, so the backend can tell
    /// a reinstalled or wiped device from the one it knew.
    package func installationID() throws(StoreError) -> String {
        if let data = try store.data(forKey: Self.installationKey), let id = String(data: data, encoding: .utf8), !id.isEmpty {
            return id
        }
        let bytes: Data
        do {
            bytes = try crypto.randomBytes(count: 16)
        } catch {
            throw .writeFailed(key: Self.installationKey, reason: error.errorDescription ?? "no random bytes")
        }
        let id = Base64URL.encode(bytes)
        try store.set(Data(id.utf8), forKey: Self.installationKey)
        return id
    }

    private func storedData() throws(StoreError) -> Data? {
        let data = try store.data(forKey: Self.credentialsKey)
        if data == nil { seen = .some(nil) }
        return data
    }

    private func credentials(in data: Data) throws(TokenServiceError) -> StoredCredentials {
        seen = .some(nil)
        var credentials: StoredCredentials
        if let decoded, decoded.data == data {
            credentials = decoded.credentials
        } else {
            guard let read = StoredCredentials.read(data) else { throw .corrupt }
            credentials = adopted(read)
            decoded = (data, credentials)
        }
        try checkBinding(of: credentials)
        seen = credentials
        return credentials
    }

    /// Whether the stored record belongs to another issuer or client; throws when the store cannot be read now.
    func isBoundElsewhere() throws(StoreError) -> Bool {
        guard let data = try storedData() else { return false }
        do {
            _ = try credentials(in: data)
            return false
        } catch .boundElsewhere {
            return true
        } catch {
            return false
        }
    }

    func save(_ credentials: StoredCredentials) throws(StoreError) {
        try store.set(credentials.encoded, forKey: Self.credentialsKey)
        seen = credentials
    }

    /// Stores `record` (a grant's pending record) under `key`, in place of any earlier one.
    func save<Record: Encodable>(_ record: Record, forKey key: String) throws(StoreError) {
        let data: Data
        do {
            data = try RecordedTime.encoder().encode(record)
        } catch {
            throw .writeFailed(key: key, reason: "the record cannot be encoded")
        }
        try store.set(data, forKey: key)
    }

    private func quarantine() {
        if let data = try? store.data(forKey: Self.credentialsKey) {
            try? store.set(data, forKey: Self.quarantineKey)
        }
        try? store.removeValue(forKey: Self.credentialsKey)
    }
}
