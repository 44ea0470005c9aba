import Foundation

/// The authorization code grant's requests at the provider (RFC 6749 §4.1 with PKCE, RFC 7636): the authorization
/// request, the redirect's checks and the code exchange, for ``AuthorizationCodeGrant`` and ``StepUpGrant``.
extension OIDCClient {
    /// A new authorization request (fresh PKCE verifier, `state`, `nonce`) and the URL to open; pushed (RFC 9126) when
    /// ``OIDCConfiguration/pushedAuthorization`` and discovery call for it, the URL then carrying only `request_uri`.
    /// - Throws: discovery errors, ``OIDCError/crypto(_:)``, ``OIDCError/pushedAuthorizationUnavailable(_:)``,
    ///   ``OIDCError/pushedAuthorizationRefused(error:description:status:)``.
    package func makeAuthorizationRequest(
        dpopKey: DPoPKey? = nil, prompt: LoginPrompt? = nil, requirement: AuthenticationRequirement = .none
    ) async throws(OIDCError) -> AuthorizationRequest {
        let metadata = try await metadata()
        let pushEndpoint = try configuration.pushedAuthorization.endpoint(in: metadata)
        let state: String, nonce: String, verifier: String
        do {
            state = try PKCE.randomToken(crypto: crypto)
            nonce = try PKCE.randomToken(crypto: crypto)
            verifier = try PKCE.randomToken(crypto: crypto)
        } catch {
            throw .crypto(error)
        }
        let parameters = authorizationParameters(state: state, nonce: nonce, verifier: verifier, dpopKey: dpopKey,
                                                 prompt: prompt, requirement: requirement, metadata: metadata)
        let issuedAt = clock.now()
        let (url, expiresAt) = try await authorizationURL(parameters, pushedTo: pushEndpoint, metadata: metadata,
                                                          dpopKey: dpopKey)
        return AuthorizationRequest(url: url, state: state, nonce: nonce, codeVerifier: verifier,
                                    redirectURI: configuration.redirectURI, issuedAt: issuedAt,
                                    requestURIExpiresAt: expiresAt)
    }

    /// The authorization code from the redirect that ends `request`, after ``AuthorizationCallback``'s checks
    /// (discovery is fetched when this client has not: an earlier process may have made the request).
    /// - Throws: ``AuthorizationCallback/code(from:expectedRedirect:expectedState:issuer:issuerRequired:)``'s
    ///   failures, or discovery's (as ``RegistrationFailure``).
    package func authorizationCode(from callback: URL, for request: AuthorizationRequest)
        async throws(RegistrationFailure) -> String
    {
        let metadata = try await RegistrationFailure.catching { () async throws(OIDCError) in try await self.metadata() }
        return try AuthorizationCallback.code(
            from: callback, expectedRedirect: request.redirectURI, expectedState: request.state,
            issuer: configuration.issuerIdentifier, issuerRequired: metadata.requiresCallbackIssuer)
    }

    /// Exchanges an authorization code for tokens (RFC 6749 §4.1.3, RFC 7636's `code_verifier`, the request's very
    /// `redirect_uri`; a DPoP proof by `proofKey`); the ID token is not validated here.
    /// - Throws: ``OIDCError/oauth(error:description:status:)`` when the provider refuses (`invalid_grant` for a
    ///   used, expired or stolen code), transport, server and malformed-response errors otherwise.
    package func exchangeCode(_ code: String, for request: AuthorizationRequest, proofKey: DPoPKey? = nil)
        async throws(OIDCError) -> TokenResponse
    {
        try await tokenRequest(proofKey: proofKey, [
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", request.redirectURI.absoluteString),
            ("code_verifier", request.codeVerifier),
            ("client_id", configuration.clientID),
        ])
    }
}
