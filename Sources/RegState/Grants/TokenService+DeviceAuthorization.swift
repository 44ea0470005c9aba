import Foundation

/// The device authorization in progress, kept in the secure store beside the credentials: written when the provider
/// answers the device authorization request and at every poll's reservation, removed when it yields tokens, ends,
/// expires or is cancelled. The caller holds the store's lock (``withExclusiveAccess(_:)``) around every write.
extension TokenService {
    /// Stores `record` in place of any earlier one.
    func savePendingDeviceAuthorization(_ record: PendingDeviceAuthorization) throws(StoreError) {
        try save(record, forKey: PendingDeviceAuthorization.storeKey)
    }

    /// The stored device authorization of this service's issuer and client, `nil` when there is none. A record that
    /// cannot be decoded, or that belongs to another configuration, reads as none.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read now (a locked device): that is no "none", which began a
    ///   second authorization beside the pending one, or let a poll leave without its stored reservation.
    func pendingDeviceAuthorization() throws(StoreError) -> PendingDeviceAuthorization? {
        guard let data = try store.data(forKey: PendingDeviceAuthorization.storeKey),
              let record = try? RecordedTime.decoder().decode(PendingDeviceAuthorization.self, from: data),
              record.belongs(to: binding)
        else { return nil }
        return record
    }

    /// Removes the stored device authorization: the one with `deviceCode` when given (another one, or another
    /// configuration's, is left for its owner), otherwise whichever is stored, an undecodable record included. A read
    /// the store refuses (a locked device) throws, and nothing is removed.
    func removePendingDeviceAuthorization(deviceCode: String?) throws(StoreError) {
        if let deviceCode, try pendingDeviceAuthorization()?.deviceCode != deviceCode { return }
        try store.removeValue(forKey: PendingDeviceAuthorization.storeKey)
    }
}
