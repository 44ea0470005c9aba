import Foundation

/// The rejection hold (``RejectionHold``) in the credentials record, shared by every process and launch.
extension TokenService {
    /// Until when a server's rejection of `token` is held now (not to be answered with a renewal), by `record`, the
    /// record the caller just read (no second read); `nil` when it is not held. A stored hold longer than its backoff
    /// from now is cut to it, and the cut stored under the store's lock (taken here unless `underLock`), so every
    /// process sees it pass after at most its backoff.
    func heldUntil(_ token: String, carrier: TokenCarrier, in record: StoredCredentials?, underLock: Bool = false) async
        -> Date?
    {
        let now = clock.now()
        guard let stored = record?.hold(of: token, carrier: carrier), stored.holds(at: now) else { return nil }
        let cut = stored.clamped(at: now)
        guard cut != stored else { return stored.until }
        // Re-read under the lock: the hold is cut only on the record it was read from.
        func storeCut() throws(StoreError) {
            if var credentials = try readRecord(), credentials.hold(of: token, carrier: carrier) == stored {
                credentials[keyPath: StoredCredentials.holdField(carrier)] = cut
                try save(credentials)
            }
        }
        // Not stored now (the lock not taken in time, a write refused): held for the cut all the same, and the next
        // rejection cuts it again.
        if underLock { try? storeCut() } else { try? await withExclusiveAccess(storeCut) }
        return cut.until
    }

    /// `token` was rejected right after a renewal: holds it, under the store's lock, so that no process renews it for
    /// a rejection before the hold has passed.
    func holdRejected(_ token: String, carrier: TokenCarrier) async throws(StoreError) {
        try await withExclusiveAccess { () throws(StoreError) in
            guard var credentials = try readRecord(), credentials.token(of: carrier) == token else { return }
            let now = clock.now()
            let stored = credentials.hold(of: token, carrier: carrier)
            if let stored, stored.holds(at: now) {
                // Held already; a hold reaching further than its backoff from now is cut to it.
                let cut = stored.clamped(at: now)
                guard cut != stored else { return }
                credentials[keyPath: StoredCredentials.holdField(carrier)] = cut
            } else {
                credentials[keyPath: StoredCredentials.holdField(carrier)] = .after(stored, at: now)
            }
            try save(credentials)
        }
    }
}
