import Foundation
import RegState

/// Why a userinfo request (``RegState/OIDCClient/userInfo(accessToken:subject:)``) gave no claims.
package enum UserInfoError: Error, Sendable, Equatable {
    /// The provider's error, as for any of its requests.
    case provider(OIDCError)
    /// The response is about another user: its `sub` is not the ID token's (OIDC Core §5.3.2). Nothing of it was used.
    case subjectMismatch
    /// The access token was refused with 401: it is expired or revoked.
    case unauthorized
}

extension UserInfoError: LocalizedError {
    /// A sentence for people; never contains a claim or a token.
    package var errorDescription: String? {
        switch self {
        case .provider(let error): error.errorDescription
        case .subjectMismatch: "The sign-in service sent the profile of another user."
        case .unauthorized: "The access token was refused; it has expired or was revoked."
        }
    }
}
