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

    /// Records, in the credentials record itself, that a refresh grant with `record`'s refresh token is about to be
    /// sent: one atomic write under the store's lock, before anything leaves the device.
    /// ``storeRenewed(_:profile:over:)`` removes the mark in the same write that stores the answer, so a mark found
    /// at the next renewal means the previous one was interrupted after the grant may have reached the provider. An
    /// earlier mark is kept (its time is when the lost answer was asked for).
    ///
    /// - Parameter record: the record read under the lock (``lockedRecord()``).
    /// - Returns: the record as it now stands, with the mark.
    /// - Throws: ``StoreError``.
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
    ///
    /// - Parameters:
    ///   - marked: the record as ``markRenewalStarted(on:)`` left it.
    ///   - answer: the refused answer.
    /// - Throws: ``StoreError``.
    package func clearRenewalMark(on marked: StoredCredentials, keepingRotationOf answer: TokenResponse) throws {
        var cleared = marked
        cleared.renewalStartedAt = nil
        cleared.keepRefreshToken(of: answer, at: answer.receivedAt ?? clock.now())
        guard cleared != marked else { return }
        try save(cleared)
    }
}
