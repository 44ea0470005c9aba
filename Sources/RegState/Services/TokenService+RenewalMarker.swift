import Foundation

extension TokenService {
    /// Records, in the credentials record itself, that a refresh grant with `refreshToken` is about to be sent: one
    /// atomic write under the store's lock, before anything leaves the device. ``storeRenewed(_:profile:replacing:)``
    /// removes the mark in the same write that stores the answer, so a mark found at the next renewal means the
    /// previous one was interrupted after the grant may have reached the provider. An earlier mark is kept (its time
    /// is when the lost answer was asked for).
    ///
    /// - Returns: whether a mark was there already (an interrupted renewal).
    /// - Throws: ``StoreError``.
    package func markRenewalStarted(with refreshToken: String) throws -> Bool {
        guard var credentials = try load(), credentials.refreshToken == refreshToken else { return false }
        if credentials.renewalStartedAt != nil { return true }
        credentials.renewalStartedAt = clock.now()
        try save(credentials)
        return false
    }

    /// Removes the mark of a renewal with `refreshToken` whose answer arrived but was deliberately not stored (its
    /// ID token failed validation): nothing was lost in transit, so the next refusal is not an interrupted renewal's.
    ///
    /// - Throws: ``StoreError``.
    package func clearRenewalMark(with refreshToken: String) throws {
        guard var credentials = try load(), credentials.refreshToken == refreshToken,
              credentials.renewalStartedAt != nil else { return }
        credentials.renewalStartedAt = nil
        try save(credentials)
    }
}
