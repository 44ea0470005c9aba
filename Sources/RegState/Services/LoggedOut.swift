import Foundation

/// What a ``RegStateService/logout()`` did: at the provider, and the request that ends the user's browser session
/// there.
public struct LoggedOut: Sendable, Equatable {
    /// What happened to the refresh token at the provider: revoked, no revocation offered, or revocation refused.
    public let result: LogoutResult
    /// The request that ends the user's browser session at the provider (RP-initiated logout), when the provider
    /// offers it and the login was in its pages (on a native platform); else `nil`. Open its
    /// ``EndSessionRequest/url`` in the browser the login used, so that the next sign-in asks for the user again. It
    /// carries the ID token as `id_token_hint`: never print or log the URL (its description is redacted).
    public let endSession: EndSessionRequest?
}
