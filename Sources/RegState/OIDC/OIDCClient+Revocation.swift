import Foundation

extension OIDCClient {
    /// Which kind of token a revocation names (RFC 7009 §2.1 `token_type_hint`).
    package enum TokenTypeHint: String, Sendable, Equatable {
        /// An access token.
        case accessToken = "access_token"
        /// A refresh token (revoking it also ends its access tokens at most providers).
        case refreshToken = "refresh_token"
    }

    /// Revokes a token at the provider (RFC 7009), for logout: success is the endpoint's own `200` (§2.2).
    /// - Throws: ``OIDCError/unsupported(_:)`` without a revocation endpoint; ``OIDCError/notTheProvider(status:)``
    ///   for a redirect or a page (transient); ``OIDCError/server(status:)`` for 5xx; OAuth errors,
    ///   ``OIDCError/unexpectedStatus(_:)`` (a 2xx other than 200 among them) and transport errors.
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
    /// - Throws: ``OIDCError/unsupported(_:)`` when neither document names one, only once the provider answered (so
    ///   "no revocation" is never concluded offline); ``OIDCError/insecureURL(_:)``; discovery errors.
    func revocationEndpoint() async throws(OIDCError) -> URL {
        if let endpoint = try await metadata().revocationEndpoint { return endpoint }
        if let cachedRevocationEndpoint { return cachedRevocationEndpoint }
        var unanswered: OIDCError?
        var answered = false
        for url in configuration.authorizationServerMetadataURLs {
            let request = HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"])
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
