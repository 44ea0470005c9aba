import Foundation

/// Something that can run the refresh-token grant: the identity provider seam ``RefreshTokenGrant`` depends on.
package protocol TokenRefreshing: Sendable {
    /// Exchanges `refreshToken` for new tokens, with a DPoP proof signed by `proofKey` when the token is bound.
    ///
    /// - Throws: ``OIDCError``; ``OIDCError/isRefusal`` marks an explicit denial.
    func refreshTokens(using refreshToken: String, proofKey: DPoPKey?) async throws(OIDCError) -> TokenResponse
    /// Makes sure what checking a refreshed ID token needs (the issuer's current signing keys) is at hand, fetching
    /// the keys afresh (cached ones may be those a rotation retired): a grant rotates the refresh token whatever its
    /// answer's check finds, so none is spent on an answer that could not be checked now.
    ///
    /// - Throws: ``OIDCError`` when the keys cannot be fetched (offline, the provider down, a malformed key set).
    func prepareIDTokenCheck() async throws(OIDCError)
    /// Validates the ID token of a refresh answer against the session's original (OIDC Core 12.2 and 3.1.3.7).
    ///
    /// - Throws: ``OIDCError/invalidIDToken(_:)`` when any check fails.
    func validateRefreshedIDToken(_ idToken: String, originalIDToken: String) async throws(OIDCError)
        -> VerifiedIDToken
}
