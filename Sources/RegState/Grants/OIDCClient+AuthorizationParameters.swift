import Foundation

/// The parameters of one authorization request, in one place for the first URL (or push) and a push made again.
extension OIDCClient {
    /// `response_type`, `client_id`, `redirect_uri`, the scopes the provider supports, `state`, `nonce`, the PKCE
    /// S256 challenge of `verifier`, `dpop_jkt` with `dpopKey` (RFC 9449 §10), `prompt`, `max_age` and `acr_values`
    /// of `requirement` (OIDC Core §3.1.2.1), then the configuration's additional parameters (never one of those).
    func authorizationParameters(state: String, nonce: String, verifier: String, dpopKey: DPoPKey?,
                                 prompt: LoginPrompt?, requirement: AuthenticationRequirement,
                                 metadata: ProviderMetadata) -> [(String, String)] {
        var parameters: [(String, String)] = [
            ("response_type", "code"),
            ("client_id", configuration.clientID),
            ("redirect_uri", configuration.redirectURI.absoluteString),
            ("scope", configuration.requestedScopes(supported: metadata.scopesSupported).joined(separator: " ")),
            ("state", state),
            ("nonce", nonce),
            ("code_challenge", PKCE.challenge(for: verifier, crypto: crypto)),
            ("code_challenge_method", PKCE.method),
        ]
        if let dpopKey { parameters.append(("dpop_jkt", dpopKey.thumbprint)) }
        if let prompt { parameters.append(("prompt", prompt.rawValue)) }
        parameters += requirement.parameters
        let reserved = Set(parameters.map(\.0))
        for (name, value) in configuration.additionalAuthorizationParameters.sorted(by: { $0.key < $1.key })
        where !reserved.contains(name) {
            parameters.append((name, value))
        }
        return parameters
    }

    /// `request` pushed again (RFC 9126) because its `request_uri` expired: the same parameters (`state`, `nonce`,
    /// PKCE, the same `dpopKey`), so a redirect for the earlier URL still finishes the same login; a new URL and
    /// expiry, the same issue time (the login's age does not restart).
    /// - Throws: ``OIDCError/pushedAuthorizationUnavailable(_:)`` when the provider no longer offers PAR, and the
    ///   errors of ``authorizationURL(_:pushedTo:metadata:dpopKey:)``.
    package func pushAgain(_ request: AuthorizationRequest, dpopKey: DPoPKey?, prompt: LoginPrompt?,
                           requirement: AuthenticationRequirement) async throws(OIDCError) -> AuthorizationRequest
    {
        let metadata = try await metadata()
        guard let endpoint = try configuration.pushedAuthorization.endpoint(in: metadata) else {
            throw .pushedAuthorizationUnavailable("the provider no longer offers pushed authorization requests")
        }
        let parameters = authorizationParameters(state: request.state, nonce: request.nonce,
                                                 verifier: request.codeVerifier, dpopKey: dpopKey, prompt: prompt,
                                                 requirement: requirement, metadata: metadata)
        var again = request
        (again.url, again.requestURIExpiresAt) = try await authorizationURL(parameters, pushedTo: endpoint,
                                                                            metadata: metadata, dpopKey: dpopKey)
        return again
    }
}
