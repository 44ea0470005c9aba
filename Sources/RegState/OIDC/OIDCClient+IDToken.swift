import Foundation

extension OIDCClient {
    /// Validates an ID token (OIDC Core §3.1.3.7: signature against the issuer's JWKS, `iss`, `aud`, `azp`, `exp`,
    /// `iat`, `nonce`) and reads the user's profile from its claims.
    ///
    /// The JWKS is fetched from the discovery document's `jwks_uri` and cached. When the token names a key the cached
    /// set lacks, the set is fetched again once (the provider may have rotated its keys) and validation retried.
    /// - Parameters:
    ///   - idToken: The compact ID token.
    ///   - expectedNonce: The nonce of the authorization request; `nil` for tokens from a refresh or a passwordless
    ///     exchange, where no nonce was sent.
    /// - Returns: The verified token and its ``Profile``.
    /// - Throws: ``OIDCError/invalidIDToken(_:)`` for a failed check; discovery and JWKS fetch errors otherwise.
    package func validateIDToken(_ idToken: String, expectedNonce: String?) async throws(OIDCError) -> VerifiedIDToken {
        let validator = IDTokenValidator(issuer: configuration.issuerIdentifier, clientID: configuration.clientID,
                                         leeway: configuration.idTokenLeeway, crypto: crypto)
        var keys = try await keySet(forceRefresh: false)
        var refetched = false
        while true {
            do throws(IDTokenError) {
                let token = try validator.validate(idToken, keySet: keys, expectedNonce: expectedNonce, now: clock.now())
                guard let profile = try? ProfileService().profile(fromClaims: token.claims) else {
                    throw IDTokenError.malformed("no sub or iss claim")
                }
                return VerifiedIDToken(token: token, profile: profile)
            } catch {
                guard error.suggestsKeyRefresh, !refetched else { throw .invalidIDToken(error) }
                refetched = true
                keys = try await keySet(forceRefresh: true)
            }
        }
    }

    /// The issuer's signing keys, from the cache unless `forceRefresh`; a failed fetch keeps the old cache.
    func keySet(forceRefresh: Bool) async throws(OIDCError) -> JSONWebKeySet {
        if !forceRefresh, let cachedKeys { return cachedKeys }
        let metadata = try await metadata()
        let request = HTTPRequest(method: .get, url: metadata.jwksURI, headers: ["Accept": "application/json"])
        let response = try await ResponseReading.send(request, over: transport)
        guard response.isSuccess else { throw ResponseReading.failure(response) }
        let keys: JSONWebKeySet
        do {
            keys = try JSONDecoder().decode(JSONWebKeySet.self, from: response.body)
        } catch {
            throw .malformedResponse("the JWKS is not valid (\(Self.decodingDetail(error)))")
        }
        cachedKeys = keys
        return keys
    }
}
