import Foundation

/// The step-up login in progress, kept in the secure store beside the credentials. The caller holds the store's lock
/// (``withExclusiveAccess(_:)``) around every write.
extension TokenService {
    /// Stores `record` in place of any earlier one.
    func savePendingStepUp(_ record: PendingStepUp) throws(StoreError) {
        try save(record, forKey: PendingStepUp.storeKey)
    }

    /// The stored step-up of this service's issuer and client, `nil` when there is none; a record that cannot be
    /// decoded, or that belongs to another configuration, reads as none.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read now (a locked device): that is no "none".
    func pendingStepUp() throws(StoreError) -> PendingStepUp? {
        guard let data = try store.data(forKey: PendingStepUp.storeKey),
              let record = try? RecordedTime.decoder().decode(PendingStepUp.self, from: data),
              record.belongs(to: binding)
        else { return nil }
        return record
    }

    /// Removes the stored step-up: the one with `state` when given (another is left alone), otherwise whichever is
    /// stored. Returns the removed record, when it was this configuration's.
    @discardableResult
    func removePendingStepUp(state: String?) throws(StoreError) -> PendingStepUp? {
        let stored = try pendingStepUp()
        if let state, stored?.request.state != state { return nil }
        try store.removeValue(forKey: PendingStepUp.storeKey)
        return stored
    }
}
