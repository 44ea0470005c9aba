import Foundation

/// A social login begun earlier and not finished yet, as ``RegStateService/pendingSocialLogin()`` reports it: kept in
/// the secure store so that it survives the app being killed while the user is in the browser. It carries no secret
/// but the authorization URL the app already opened (its description leaves out the query).
public struct PendingSocialLogin: Sendable, Equatable, CustomStringConvertible {
    /// The authorization URL that was opened, for an app that wants to open it again.
    public let authorizationURL: URL
    /// When the login was begun, by the device clock.
    public let startedAt: Date
    /// When it can no longer be finished (``RegStateConfiguration/pendingLoginLifetime`` after ``startedAt``).
    public let expiresAt: Date
    /// The `prompt` it asked the provider for, if any.
    public let prompt: LoginPrompt?
    /// Whether it was already too old to finish when it was read (by the service's clock): its redirect is refused
    /// with ``RegistrationFailure/pendingLoginExpired``.
    public let isExpired: Bool
    /// When ``authorizationURL`` stops working (a pushed request's `request_uri` expiry, RFC 9126; `nil`: with the
    /// login). A redirect still finishes the login after it; ``RegStateService/reopenSocialLogin()`` opens a new URL.
    public let authorizationURLExpiresAt: Date?
    /// Whether ``authorizationURL`` was already dead when this was read (by the service's clock).
    public let isAuthorizationURLExpired: Bool
    /// What its sign-in must meet (`max_age`, `acr_values`), `nil` when it asked for nothing.
    public let requirement: AuthenticationRequirement?

    /// The endpoint without its query, and the times.
    public var description: String {
        var components = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false)
        components?.query = nil
        return "PendingSocialLogin(\(components?.string ?? "<url>"), startedAt: \(startedAt), expiresAt: \(expiresAt))"
    }
}
