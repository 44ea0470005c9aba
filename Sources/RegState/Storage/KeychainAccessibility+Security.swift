#if canImport(Security) || REGSTATE_APPLE_TYPECHECK
import Foundation
#if canImport(Security)
import Security
#endif

extension KeychainAccessibility {
    /// The `kSecAttrAccessible` value of the class.
    var attributeValue: CFString {
        switch self {
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }
}
#endif
