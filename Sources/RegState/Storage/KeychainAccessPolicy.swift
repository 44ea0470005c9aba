import Foundation

/// Whether the Keychain asks for the user before it hands RegState an item (`SecAccessControl`), for
/// `KeychainSecureStore`. An app opts in; the default asks nothing.
public enum KeychainAccessPolicy: Sendable, Equatable {
    /// No prompt: the accessibility class alone decides (the default; what extensions and background renewals need).
    case none
    /// `SecAccessControlCreateFlags.userPresence`: biometry or the device passcode before each read of an item; not
    /// for extensions that renew unattended (<doc:SharingASessionWithAppExtensions>).
    case userPresence
}
