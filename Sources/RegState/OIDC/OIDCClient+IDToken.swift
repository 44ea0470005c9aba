import Foundation

extension OIDCClient {
    /// Validates an ID token (OIDC Core §3.1.3.7, RFC 8725) and reads the user's profile from its claims.
    /// - Parameters:
    ///   - expectedNonce: The authorization request's nonce; `nil` when the grant sent none.
    ///   - requirement: What the login asked for (`max_age`, `acr_values`), checked on the same clock.
    ///   - freshFromTokenEndpoint: Whether `iat` may stand in for the provider's clock (never for a host's token).
    /// - Throws: ``OIDCError/invalidIDToken(_:)`` for a failed check; discovery and JWKS fetch errors otherwise.
    package func validateIDToken(_ idToken: String, expectedNonce: String?, requirement: AuthenticationRequirement = .none,
                                 freshFromTokenEndpoint: Bool = false) async throws(OIDCError) -> VerifiedIDToken {
        try await validated(fresh: freshFromTokenEndpoint ? idToken : nil) { validator, keys, now throws(IDTokenError) in
            let token = try validator.validate(idToken, keySet: keys, expectedNonce: expectedNonce, now: now)
            try validator.checkAuthentication(of: token, meets: requirement, now: now)
            return token
        }
    }

    /// Validates an ID token that came with a refresh against the session's original one (OIDC Core §12.2): every
    /// check of ``validateIDToken(_:expectedNonce:)``, then `iss` and `sub` equal to the original's and `nonce`, when
    /// present, equal to the original's. `originalIDToken` is the session's stored one (it may have expired).
    /// - Throws: ``OIDCError/invalidIDToken(_:)`` (``IDTokenError/refreshedIdentityMismatch`` for another user or
    ///   issuer); discovery and JWKS fetch errors otherwise.
    package func validateRefreshedIDToken(_ idToken: String, originalIDToken: String) async throws(OIDCError)
        -> VerifiedIDToken
    {
        let original: JSONWebToken
        do throws(JWTError) {
            original = try JSONWebToken(compact: originalIDToken)
        } catch {
            throw .invalidIDToken(.refreshedIdentityMismatch)
        }
        return try await validated(fresh: idToken) { validator, keys, now throws(IDTokenError) in
            try validator.validateRefreshed(idToken, original: original, keySet: keys, now: now)
        }
    }

    /// Runs `check` with a validator for this client and the discovery document's algorithms (the JWKS refetched once
    /// on an unknown `kid`) on the provider's clock, and reads the profile; `fresh`: see `docs/Internals-Grants.md`.
    private func validated(
        fresh: String? = nil,
        _ check: (IDTokenValidator, JSONWebKeySet, Date) throws(IDTokenError) -> JSONWebToken
    ) async throws(OIDCError) -> VerifiedIDToken {
        let algorithms: Set<SignatureAlgorithm>
        let metadata = try await metadata()
        do throws(IDTokenError) {
            algorithms = try metadata.acceptedIDTokenAlgorithms()
        } catch {
            throw .invalidIDToken(error)
        }
        let validator = IDTokenValidator(issuer: configuration.issuerIdentifier, clientID: configuration.clientID,
                                         leeway: configuration.idTokenLeeway, allowedAlgorithms: algorithms,
                                         crypto: crypto)
        var keys = try await keySet(forceRefresh: false)
        var refetched = false
        while true {
            do throws(IDTokenError) {
                let token = try checkedOnProviderClock(fresh: fresh) { now throws(IDTokenError) in
                    try check(validator, keys, now)
                }
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

    /// Runs `check` at the provider's time per the estimate; for a `fresh` token while no `Date` header gave an
    /// estimate, again at its `iat` when only the time claims failed, and keeps its `iat` as the estimate once it
    /// passed (telling ``onClockOffset`` when that moved the estimate).
    private func checkedOnProviderClock(
        fresh: String?, _ check: (Date) throws(IDTokenError) -> JSONWebToken
    ) throws(IDTokenError) -> JSONWebToken {
        let byIssueTime = fresh != nil && clockEstimate.source != .dateHeader
        let token: JSONWebToken
        do {
            token = try check(clockEstimate.providerNow(deviceNow: clock.now()))
        } catch {
            guard byIssueTime, error.isTimeClaimFailure, let fresh,
                  let issuedAt = (try? JSONWebToken(compact: fresh))?.issuedAt else { throw error }
            token = try check(issuedAt)
        }
        if byIssueTime, let issuedAt = token.issuedAt,
           let changed = clockEstimate.observeIssueTime(issuedAt, at: clock.now()) {
            onClockOffset(changed)
        }
        return token
    }

    /// The issuer's signing keys, from the cache unless `forceRefresh`; a failed fetch keeps the old cache. Read
    /// strictly (``JSONWebKeySet/parse(_:)``) and kept as one value, so each key is parsed once while cached.
    func keySet(forceRefresh: Bool) async throws(OIDCError) -> JSONWebKeySet {
        if !forceRefresh, let cachedKeys { return cachedKeys }
        let metadata = try await metadata()
        let request = HTTPRequest(method: .get, url: metadata.jwksURI, headers: ["Accept": "application/json"])
        let response = try await ResponseReading.send(request, over: transport)
        let body = try ResponseReading.documentBody(response)
        let keys: JSONWebKeySet
        do throws(JSONWebKeySet.ParseError) {
            keys = try JSONWebKeySet.parse(body)
        } catch {
            switch error {
            case .json(let detail):
                throw .malformedResponse("the JWKS is not valid (\(detail.errorDescription ?? "not JSON"))")
            case .noKeysArray: throw .malformedResponse("the JWKS is not valid (missing keys)")
            }
        }
        cachedKeys = keys
        return keys
    }
}
