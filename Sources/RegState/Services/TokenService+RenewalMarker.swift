import Foundation

extension TokenService {
    /// Marks `record` (read under the store's lock) with the start of a refresh grant, in one write before anything
    /// leaves the device, and returns it; an earlier mark is kept (docs/Guarantees.md: interrupted renewals).
    package func markRenewalStarted(on record: StoredCredentials) throws(StoreError) -> StoredCredentials {
        guard record.renewalStartedAt == nil else { return record }
        var marked = record
        marked.renewalStartedAt = clock.now()
        try save(marked)
        return marked
    }

    /// Removes the mark of a renewal whose answer arrived but was deliberately not used (its ID token failed
    /// validation): nothing was lost in transit. Only a rotated refresh token is kept of that answer: the provider has
    /// retired the one presented, so without it the next renewal would be refused as a reuse.
    package func clearRenewalMark(on marked: StoredCredentials, keepingRotationOf answer: TokenResponse) throws(StoreError) {
        var cleared = marked
        cleared.renewalStartedAt = nil
        cleared.keepRefreshToken(of: answer, at: answer.receivedAt ?? clock.now())
        guard cleared != marked else { return }
        try save(cleared)
    }
}
