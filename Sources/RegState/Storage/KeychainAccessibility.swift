import Foundation

/// When the Keychain lets RegState read its items (`kSecAttrAccessible`): chosen by the app, for
/// `KeychainSecureStore`. Every class is this-device-only: a session never migrates to another device through a
/// backup, and items are never synchronised to iCloud.
public enum KeychainAccessibility: String, Sendable, Equatable, CaseIterable {
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, the default: readable from the first unlock after a restart,
    /// locked or not, so background renewals and extensions work on a locked device.
    case afterFirstUnlockThisDeviceOnly
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`: readable only while the device is unlocked (a renewal on a
    /// locked device waits for the next unlock; the session is kept).
    case whenUnlockedThisDeviceOnly
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: like ``whenUnlockedThisDeviceOnly``, on a device with a
    /// passcode only (removing the passcode removes the items and ends the session).
    case whenPasscodeSetThisDeviceOnly
}
