import Foundation

/// Why the simulator refused something outside HTTP: a request a real server would not redirect back for, or a world
/// it cannot load or save.
///
/// HTTP-level failures are not errors: they are `HTTPResponse` values with the status and body a real server sends.
/// No case ever carries a token, a code or key material.
public enum SimulatorError: Error, Sendable, Equatable {
    /// The URL is not the simulator's authorization endpoint.
    case notAuthorizationEndpoint
    /// The authorization request names a `client_id` the provider does not know (a real server shows an error page).
    case unknownClient(String)
    /// The authorization request has no `redirect_uri` or one that is not registered (never redirected to).
    case unregisteredRedirectURI(String)
    /// The address given to ``Simulator/authorize(_:as:)`` is not an email address.
    case invalidEmail(String)
    /// The provider is down (``SimulatorConfiguration/providerDown``): the browser would show a server error.
    case providerUnavailable
    /// The provider requires pushed authorization requests (``SimulatorPushedAuthorization/required``) and the
    /// authorization URL carries no `request_uri`: the browser would show an error page, nothing is redirected.
    case pushedAuthorizationRequired
    /// The authorization URL's `request_uri` is unknown, already used, expired or pushed by another client (RFC 9126
    /// §4): an error page, nothing is redirected.
    case invalidRequestURI
    /// No device authorization (RFC 8628) has this user code.
    case unknownUserCode
    /// The persisted world could not be read or decoded; the detail says why.
    case worldUnreadable(String)
    /// The world could not be written; the detail says why.
    case worldUnwritable(String)
    /// The world's signing key could not be created or used; the detail says why, never what the key is.
    case signingKeyUnusable(String)
}

extension SimulatorError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .notAuthorizationEndpoint: "The URL is not the simulator's authorization endpoint."
        case .unknownClient(let clientID): "The client \"\(clientID)\" is not registered with the simulator."
        case .unregisteredRedirectURI(let uri): "The redirect URI \"\(uri)\" is not registered with the simulator."
        case .invalidEmail(let email): "\"\(email)\" is not an email address."
        case .providerUnavailable: "The simulated identity provider is down."
        case .pushedAuthorizationRequired: "The simulated provider accepts only pushed authorization requests."
        case .invalidRequestURI: "The request_uri is unknown, used, expired or another client's."
        case .unknownUserCode: "No sign-in on another device has this code."
        case .worldUnreadable(let detail): "The simulator's world could not be read (\(detail))."
        case .worldUnwritable(let detail): "The simulator's world could not be saved (\(detail))."
        case .signingKeyUnusable(let detail): "The simulator's signing key cannot be used (\(detail))."
        }
    }
}
