import Foundation

extension TokenService {
    /// The credentials record as it is now, for a renewal holding the store's lock: the one reading its writes
    /// (``markRenewalStarted(on:)``, ``storeRenewed(_:profile:over:)``) start from. Every writer of the record holds
    /// the lock, so it cannot change until the lease is released. `nil` when there is none (or it is damaged).
    ///
    /// - Throws: the ``StoreError`` of a store that cannot be read now (a locked device): never taken for "no record".
    package func lockedRecord() throws(StoreError) -> StoredCredentials? {
        try readRecord()
    }

    /// Marks `record` (read under the lock, ``lockedRecord()``) with the start of a refresh grant, in one atomic
    /// write before anything leaves the device, and returns it. ``storeRenewed(_:profile:over:)`` removes the mark in
    /// the write that stores the answer, so a mark found at the next renewal means the previous one was interrupted
    /// after the grant may have reached the provider. An earlier mark is kept (its time is when the lost answer was
    /// asked for).
    package func markRenewalStarted(on record: StoredCredentials) throws -> StoredCredentials {
        guard record.renewalStartedAt == nil else { return record }
        var marked = record
        marked.renewalStartedAt = clock.now()
        try save(marked)
        return marked
    }

    /// Removes the mark of a renewal whose answer arrived but was deliberately not used (its ID token failed
    /// validation): nothing was lost in transit, so the next refusal is not an interrupted renewal's.
    ///
    /// Of that answer only a rotated refresh token is kept. The provider has retired the one presented, so without
    /// the new one the next renewal would be refused as a reuse and the session lost to one bad answer; what the new
    /// one brings is validated again at that renewal.
    package func clearRenewalMark(on marked: StoredCredentials, keepingRotationOf answer: TokenResponse) throws {
        var cleared = marked
        cleared.renewalStartedAt = nil
        cleared.keepRefreshToken(of: answer, at: answer.receivedAt ?? clock.now())
        guard cleared != marked else { return }
        try save(cleared)
    }
}
