import Foundation

/// The one mechanism for a grant's pending record (``PendingGrantRecord``) in the secure store beside the
/// credentials: written when the grant starts waiting (and when it moves on), read by whichever process finishes it,
/// removed when it yields tokens, ends, expires or is cancelled. The caller holds the store's lock
/// (``withExclusiveAccess(_:)``) around every write, so two processes never both take one grant.
extension TokenService {
    /// The secure-store key of every grant's pending record.
    static let pendingGrantKeys = [PendingLogin.storeKey, PendingDeviceAuthorization.storeKey, PendingStepUp.storeKey]

    /// Stores `record` in place of any earlier one of its kind (a newer start supersedes an older pending grant).
    func savePending<Record: PendingGrantRecord>(_ record: Record) throws(StoreError) {
        try save(record, forKey: Record.storeKey)
        if Record.isOwnedByWriter { owned.wrotePendingLogin(state: record.grantID) }
    }

    /// The stored record of this service's issuer and client; `nil` when none is, or it is undecodable, damaged or
    /// another configuration's. A store that cannot be read now (a locked device) throws: that is no "none", which
    /// began a second grant beside the pending one, or removed a record it could not read.
    func pending<Record: PendingGrantRecord>(_ kind: Record.Type) throws(StoreError) -> Record? {
        guard let record = try decoded(kind), record.belongs(to: binding), record.isWellFormed else { return nil }
        return record
    }

    private func decoded<Record: PendingGrantRecord>(_ kind: Record.Type) throws(StoreError) -> Record? {
        guard let data = try store.data(forKey: Record.storeKey) else { return nil }
        return try? RecordedTime.decoder().decode(Record.self, from: data)
    }

    /// Removes the stored record of `kind` and returns it when it was this configuration's: with `id`, only that
    /// ``PendingGrantRecord/grantID``'s (another, or another configuration's, is left for its owner; an undecodable one
    /// is removed); without, whichever is stored. A read the store refuses (a locked device) throws, removing nothing.
    @discardableResult
    func removePending<Record: PendingGrantRecord>(_ kind: Record.Type, id: String?) throws(StoreError) -> Record? {
        let stored = try pending(kind)
        if let id {
            if let stored, stored.grantID != id { return nil }
            if stored == nil, let other = try decoded(kind), !other.belongs(to: binding) { return nil }
        }
        try store.removeValue(forKey: Record.storeKey)
        return stored
    }

    /// ``removePending(_:id:)`` under the store's lock, for a grant that ends (cancelled, failed, superseded): a store
    /// that refuses is logged, and the record stays for a later removal.
    nonisolated func withdrawPending<Record: PendingGrantRecord>(_ kind: Record.Type, id: String?,
                                                                logger: any RegStateLogger) async {
        do {
            _ = try await withExclusiveAccess { () async throws(StoreError) in try await removePending(kind, id: id) }
        } catch {
            logger.log(.warning, "\(Record.storeKey): not removed (\(error.localizedDescription))")
        }
    }
}
