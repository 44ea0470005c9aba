import Foundation

/// The device authorization in progress, kept in the secure store beside the credentials: written when the provider
/// answers the device authorization request and at every poll's reservation, removed when it yields tokens, ends,
/// expires or is cancelled. The caller holds the store's lock (``exclusiveAccess()``) around every write.
extension TokenService {
    /// Stores `record` in place of any earlier one.
    func savePendingDeviceAuthorization(_ record: PendingDeviceAuthorization) throws {
        try store.set(try RecordedTime.encoder().encode(record), forKey: PendingDeviceAuthorization.storeKey)
    }

    /// The stored device authorization of this service's issuer and client, `nil` when there is none. A record that
    /// cannot be read, or that belongs to another configuration, reads as none.
    func pendingDeviceAuthorization() -> PendingDeviceAuthorization? {
        guard let data = try? store.data(forKey: PendingDeviceAuthorization.storeKey),
              let record = try? RecordedTime.decoder().decode(PendingDeviceAuthorization.self, from: data),
              record.belongs(to: binding)
        else { return nil }
        return record
    }

    /// Removes the stored device authorization: the one with `deviceCode` when given (another one, or another
    /// configuration's, is left for its owner), otherwise whichever is stored, an unreadable record included.
    func removePendingDeviceAuthorization(deviceCode: String?) throws {
        if let deviceCode, pendingDeviceAuthorization()?.deviceCode != deviceCode { return }
        try store.removeValue(forKey: PendingDeviceAuthorization.storeKey)
    }
}
