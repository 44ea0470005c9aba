import Foundation

/// When the Keychain lets RegState read its items (`kSecAttrAccessible`): chosen by the app, for
/// `KeychainSecureStore`. Every class is this-device-only: a session never migrates to another device through a
/// backup, and items are never synchronised to iCloud.
public enum KeychainAccessibility: String, Sendable, Equatable, CaseIterable {
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, the default: readable from the first unlock after a
    /// restart until the next restart, locked or not, so background renewals, widgets and notification service
    /// extensions work on a locked device. Before the first unlock every read is
    /// ``StoreError/interactionNotAllowed(key:)`` (recoverable).
    case afterFirstUnlockThisDeviceOnly
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`: readable only while the device is unlocked. Stricter; any
    /// renewal while the device is locked fails with ``StoreError/interactionNotAllowed(key:)`` and is tried again
    /// after the next unlock (the session is kept).
    case whenUnlockedThisDeviceOnly
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: like ``whenUnlockedThisDeviceOnly``, and only on a device
    /// with a passcode (items are removed if the passcode is removed, which ends the session).
    case whenPasscodeSetThisDeviceOnly
}
