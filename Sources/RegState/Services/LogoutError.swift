import Foundation

/// Why logout did not happen.
public enum LogoutError: Error, Sendable, Equatable {
    /// The provider could not be reached: logout happens only while online, so nothing changed.
    case offline(TransientIssue)
}

extension LogoutError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .offline(.noInternet): "Logout needs a connection: you are offline, nothing was changed."
        case .offline(.ssoUnspecifiedIssue): "Logout needs the sign-in service, which is not answering: nothing was changed."
        }
    }
}
