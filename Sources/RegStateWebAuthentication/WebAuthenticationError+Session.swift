#if (canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))) || REGSTATE_APPLE_TYPECHECK
#if canImport(AuthenticationServices)
import AuthenticationServices
#endif
import Foundation

extension WebAuthenticationError {
    /// The typed reason for an error `ASWebAuthenticationSession` reported: the user's cancel, a missing or unusable
    /// window, or anything else with the system's description.
    init(sessionError error: any Error) {
        let error = error as NSError
        guard error.domain == ASWebAuthenticationSessionErrorDomain else {
            self = .failed(error.localizedDescription)
            return
        }
        switch ASWebAuthenticationSessionError.Code(rawValue: error.code) {
        case .canceledLogin: self = .cancelled
        case .presentationContextNotProvided, .presentationContextInvalid: self = .presentationUnavailable
        default: self = .failed(error.localizedDescription)
        }
    }
}
#endif
