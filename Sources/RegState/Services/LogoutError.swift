import Foundation

/// Why logout did not happen, or did not finish.
public enum LogoutError: Error, Sendable, Equatable {
    /// The provider could not be reached: logout happens only while online, so nothing changed.
    case offline(TransientIssue)
    /// The session ended (a logout, or the backend's forced logout), but its credentials could not be removed from
    /// the secure store (the store's reason: its lock not taken in time, a write refused, a locked device). They are
    /// still on the device, and the next launch finds the session: ``RegStateService/clearState()`` removes them.
    case credentialsRemain(String)
}

extension LogoutError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .offline(.noInternet): "Logout needs a connection: you are offline, nothing was changed."
        case .offline(.ssoUnspecifiedIssue): "Logout needs the sign-in service, which is not answering: nothing was changed."
        case .credentialsRemain(let reason):
            "The session was ended, but its credentials could not be removed from this device (\(reason)); try again."
        }
    }
}
