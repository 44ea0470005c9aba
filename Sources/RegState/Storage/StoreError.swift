import Foundation

/// Why the secure store failed. No case ever carries the stored value.
public enum StoreError: Error, Sendable, Equatable {
    /// The value under `key` exists but could not be read.
    case unreadable(key: String, reason: String)
    /// The value under `key` could not be written or removed.
    case writeFailed(key: String, reason: String)
    /// The store's location cannot be used (missing, not a directory, wrong permissions, not writable).
    case unusableLocation(path: String, reason: String)
    /// A key that the store cannot hold (empty, a path separator, a leading dot).
    case invalidKey(String)
    /// The store's lock was held by someone else (another process sharing the store) for `waited` seconds.
    /// Recoverable: nothing was changed, and a later attempt may succeed.
    case busy(waited: TimeInterval)
    /// The device is locked and the item under `key` is not available (`errSecInteractionNotAllowed`). Recoverable:
    /// nothing was changed; the session is kept (<doc:SharingASessionWithAppExtensions>).
    case interactionNotAllowed(key: String)
    /// The user cancelled the prompt of ``KeychainAccessPolicy/userPresence`` (`errSecUserCanceled`). Recoverable:
    /// nothing was changed; the session is kept and a later attempt asks again.
    case userCanceled(key: String)

    /// Whether a later attempt may succeed with nothing lost: the lock was busy, the device locked, or the user
    /// cancelled an authentication prompt. The engine keeps the session for these and never clears storage.
    public var isRecoverable: Bool {
        switch self {
        case .busy, .interactionNotAllowed, .userCanceled: true
        case .unreadable, .writeFailed, .unusableLocation, .invalidKey: false
        }
    }
}

extension StoreError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .unreadable(let key, let reason): "The stored value '\(key)' cannot be read: \(reason)."
        case .writeFailed(let key, let reason): "The value '\(key)' cannot be stored: \(reason)."
        case .unusableLocation(let path, let reason): "The store at \(path) cannot be used: \(reason)."
        case .invalidKey(let key): "'\(key)' is not a valid store key."
        case .busy(let waited): "The store is in use by another process (waited \(Int(waited)) s)."
        case .interactionNotAllowed(let key):
            "The stored value '\(key)' is not available while the device is locked; it will be tried again."
        case .userCanceled(let key): "Authentication for the stored value '\(key)' was cancelled."
        }
    }
}
