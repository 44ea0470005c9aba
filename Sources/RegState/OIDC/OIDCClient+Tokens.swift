import Foundation

extension OIDCClient {
    /// Renews tokens with a refresh token (RFC 6749 §6); `proofKey` is the DPoP key it is bound to. A new
    /// `refresh_token` in the answer rotated it: store it before using the access token (`docs/Internals-Grants.md`).
    /// - Throws: ``OIDCError`` whose ``OIDCError/isRefusal`` is true when the provider refused (`invalid_grant`:
    ///   revoked, expired or reused token; or the same unexplained 4xx twice), ``OIDCError/isTransient`` when a retry
    ///   may work.
    package func refresh(refreshToken: String, scope: String? = nil, proofKey: DPoPKey? = nil) async throws(OIDCError)
        -> TokenResponse
    {
        var parameters = [
            ("grant_type", "refresh_token"),
            ("refresh_token", refreshToken),
            ("client_id", configuration.clientID),
        ]
        if let scope { parameters.append(("scope", scope)) }
        let first: OIDCError
        do {
            return try await tokenRequest(proofKey: proofKey, parameters)
        } catch where error.isUnexplained4xx {
            first = error
        }
        let delay = configuration.unexplainedAnswerRetryDelay
        await clock.sleep(for: delay)
        do {
            return try await tokenRequest(proofKey: proofKey, parameters)
        } catch {
            guard error.isUnexplained4xx, error.status == first.status else { throw error }
            if case .oauth(let code, _, _) = error { throw .unexplainedRefusal(status: error.status ?? 400, error: code) }
            throw .unexplainedRefusal(status: error.status ?? 400, error: nil)
        }
    }

    /// Posts `parameters` to the token endpoint and reads the response; with `proofKey`, with a DPoP proof (and the
    /// nonce retry of RFC 9449 §8), and the token type checked against it (``checkTokenType(_:proofKey:)``).
    func tokenRequest(proofKey: DPoPKey? = nil, _ parameters: [(String, String)]) async throws(OIDCError)
        -> TokenResponse
    {
        let response = try await send(.form(url: try await metadata().tokenEndpoint, parameters: parameters),
                                      proofKey: proofKey)
        // Expiry is tracked from when the tokens arrived, on the device clock.
        var tokens = try checkTokenType(TokenResponse.parse(response), proofKey: proofKey)
        tokens.receivedAt = clock.now()
        return tokens
    }
}
