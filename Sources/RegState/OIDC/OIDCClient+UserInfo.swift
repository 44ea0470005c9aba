import Foundation

extension OIDCClient {
    /// The user's claims from the userinfo endpoint (OIDC Core §5.3), fetched with the access token as a bearer, once
    /// their `sub` is the ID token's.
    ///
    /// OIDC Core §5.3.2: the `sub` in the userinfo response must equal the ID token's, or the response must not be
    /// used (it may be someone else's claims, substituted). Nothing of a response whose `sub` differs is returned.
    /// - Parameters:
    ///   - accessToken: The bearer token.
    ///   - subject: The `sub` of the session's validated ID token (``VerifiedIDToken/profile`` or ``Profile/subject``).
    /// - Throws: ``OIDCError/userInfoSubjectMismatch`` when the claims name another subject;
    ///   ``OIDCError/unauthorized`` on 401 (expired or revoked token), ``OIDCError/unsupported(_:)`` when the provider
    ///   has no userinfo endpoint, ``OIDCError/malformedResponse(_:)`` when the answer is not a JSON object with a
    ///   string `sub` (signed userinfo responses are not supported), and transport and server errors.
    package func userInfo(accessToken: String, subject: String) async throws(OIDCError) -> [String: JSONValue] {
        guard let endpoint = try await metadata().userinfoEndpoint else {
            throw .unsupported("the provider has no userinfo endpoint")
        }
        let request = HTTPRequest(method: .get, url: endpoint,
                                  headers: AccessCredential.bearerFields(accessToken, carrier: .accessToken,
                                                                         merging: ["Accept": "application/json"]))
        let response = try await ResponseReading.send(request, over: transport)
        if response.status == 401 { throw .unauthorized }
        let claims = try ResponseReading.jsonObject(response, what: "userinfo response")
        guard let received = claims["sub"]?.stringValue, !received.isEmpty else {
            throw .malformedResponse("the userinfo response has no sub")
        }
        guard received == subject else { throw .userInfoSubjectMismatch }
        return claims
    }

    /// Which kind of token a revocation names (RFC 7009 §2.1 `token_type_hint`).
    package enum TokenTypeHint: String, Sendable, Equatable {
        /// An access token.
        case accessToken = "access_token"
        /// A refresh token (revoking it also ends its access tokens at most providers).
        case refreshToken = "refresh_token"
    }

    /// Revokes a token at the provider (RFC 7009), for logout.
    ///
    /// Posts `token`, `token_type_hint` and `client_id` as a form. Success is what RFC 7009 §2.2 says it is: the
    /// endpoint's own `200` (also for an unknown or already revoked token), whose body the client ignores — as far as
    /// the RFC lets an answer be checked: a redirect (the transport never follows one; the endpoint does not send
    /// one) or a web page (a captive portal's or a proxy's, whatever its status) is not the provider's answer, and
    /// any other status is not a revocation.
    /// - Throws: ``OIDCError/unsupported(_:)`` when the provider has no revocation endpoint;
    ///   ``OIDCError/notTheProvider(status:)`` for a redirect or a page (transient: no connection);
    ///   ``OIDCError/server(status:)`` for 5xx (503 asks the client to retry later); OAuth errors
    ///   (`unsupported_token_type`, …), ``OIDCError/unexpectedStatus(_:)`` (a 2xx other than 200 among them) and
    ///   transport errors.
    package func revoke(token: String, hint: TokenTypeHint? = nil) async throws(OIDCError) {
        let endpoint = try await revocationEndpoint()
        var parameters = [("token", token)]
        if let hint { parameters.append(("token_type_hint", hint.rawValue)) }
        parameters.append(("client_id", configuration.clientID))
        let response = try await ResponseReading.send(.form(url: endpoint, parameters: parameters), over: transport)
        // An empty 200 may carry any content type (django-oauth-toolkit's says text/html): only a body is a page.
        if (300..<400).contains(response.status) || (!response.body.isEmpty && ResponseReading.isWebPage(response)) {
            throw .notTheProvider(status: response.status)
        }
        guard response.status == 200 else { throw ResponseReading.failure(response) }
    }

    /// The RFC 7009 endpoint: from OpenID discovery, else from RFC 8414 authorization-server metadata, where some
    /// providers (django-oauth-toolkit among them) list it only.
    ///
    /// - Throws: ``OIDCError/unsupported(_:)`` when neither document names one (only when the provider answered:
    ///   an unreachable provider throws its transient error, so "no revocation" is never concluded offline);
    ///   ``OIDCError/insecureURL(_:)`` when the RFC 8414 document names one that is not `https` or loopback;
    ///   discovery errors.
    func revocationEndpoint() async throws(OIDCError) -> URL {
        if let endpoint = try await metadata().revocationEndpoint { return endpoint }
        if let cachedRevocationEndpoint { return cachedRevocationEndpoint }
        var unanswered: OIDCError?
        var answered = false
        for url in configuration.authorizationServerMetadataURLs {
            var request = HTTPRequest(method: .get, url: url)
            request.headers["Accept"] = "application/json"
            let response: HTTPResponse
            do {
                response = try await ResponseReading.send(request, over: transport)
            } catch {
                unanswered = error
                continue
            }
            if !response.isSuccess, ResponseReading.failure(response).isTransient {
                unanswered = ResponseReading.failure(response)
            } else {
                answered = true
            }
            guard response.isSuccess, let document = response.jsonBody?.objectValue,
                  document["issuer"]?.stringValue == configuration.issuerIdentifier,
                  let text = document["revocation_endpoint"]?.stringValue, let endpoint = URL(string: text)
            else { continue }
            guard TransportSecurity.allows(endpoint) else { throw .insecureURL("revocation_endpoint") }
            cachedRevocationEndpoint = endpoint
            return endpoint
        }
        if let unanswered, !answered { throw unanswered }
        throw .unsupported("the provider has no revocation endpoint")
    }
}
