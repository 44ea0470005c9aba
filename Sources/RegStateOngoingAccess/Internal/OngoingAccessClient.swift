import Foundation
import RegState

/// The wire protocol of an ongoing-access provider: signed requests out, verified answers in.
///
/// Every request is a JWT signed with the app's key (PS512) carrying a fresh `nonce` and a `timestamp`; every answer
/// is a JWS that must pass ``JWSVerifier``, echo the request's nonce and be recent. Nothing here stores anything.
struct OngoingAccessClient: Sendable {
    let configuration: OngoingAccessConfiguration
    let dependencies: OngoingAccessDependencies

    var crypto: any RSASigningProvider { dependencies.crypto }

    func endpoint(_ path: String) -> URL {
        configuration.providerURL.appendingPathComponent("v1").appendingPathComponent(path)
    }

    /// A fresh random value (32 bytes, base64url) for nonces, state and PKCE verifiers.
    func randomToken() throws(OngoingAccessError) -> String {
        do {
            return try PKCE.randomToken(crypto: crypto)
        } catch {
            throw .crypto(.randomFailed)
        }
    }

    /// Sends `claims` as a signed request to `path` and returns the verified answer's payload; an allow-listed `jku`
    /// the answer names is read from `keySets` (fetched before the request) when it is there.
    func exchange(_ path: String, claims: [String: JSONValue], now: Date, keySets: [String: JSONWebKeySet] = [:])
        async throws(OngoingAccessError) -> [String: JSONValue]
    {
        let nonce = try randomToken()
        var all = claims
        all["client_id"] = .string(configuration.appID)
        all["nonce"] = .string(nonce)
        all["timestamp"] = .number((now.timeIntervalSince1970 * 1000).rounded(.down))
        all["iat"] = .number(now.timeIntervalSince1970.rounded(.down))
        let jwt: String
        do {
            jwt = try JSONWebToken.sign(claims: all, keyID: configuration.appKeyID,
                                        privateKey: dependencies.appPrivateKey, algorithm: .ps512, crypto: crypto)
        } catch {
            throw .crypto(error)
        }
        let request = HTTPRequest.json(.post, url: endpoint(path), body: ["request": .string(jwt)])
        let response = try await send(request)
        guard let answer = response.jsonBody?["token"]?.stringValue else {
            throw .malformedAnswer("no \"token\" in the answer")
        }
        let payload = try await verify(answer, keySets: keySets)
        guard payload["nonce"]?.stringValue == nonce else { throw .replayedAnswer }
        guard let issuedAt = payload["iat"]?.dateValue else {
            throw .malformedAnswer("no numeric \"iat\"")
        }
        guard issuedAt <= now.addingTimeInterval(configuration.answerLeeway),
              now.timeIntervalSince(issuedAt) <= configuration.maximumAnswerAge + configuration.answerLeeway
        else { throw .replayedAnswer }
        return payload
    }

    /// Sends `request`; a 429, or a 503 with a `Retry-After` (read by `RetryAfter`, the engine's one reader), becomes
    /// ``OngoingAccessError/rateLimited(retryAfter:)``, any other non-2xx status
    /// ``OngoingAccessError/providerRefused(status:error:)``.
    func send(_ request: HTTPRequest) async throws(OngoingAccessError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await dependencies.transport.send(request)
        } catch {
            throw .transport(error)
        }
        guard response.isSuccess else {
            if let seconds = RetryAfter.seconds(in: response) { throw .rateLimited(retryAfter: seconds) }
            if response.status == 429 { throw .rateLimited(retryAfter: nil) }
            let code = response.jsonBody?["error"]?.stringValue ?? "http_\(response.status)"
            throw .providerRefused(status: response.status, error: code)
        }
        return response
    }

    /// Verifies a signed answer, following an allow-listed `jku` only (read from `keySets` when it is there).
    func verify(_ compact: String, keySets: [String: JSONWebKeySet] = [:]) async throws(OngoingAccessError)
        -> [String: JSONValue]
    {
        let verifier = JWSVerifier(keys: configuration.providerKeys, allowedAlgorithms: configuration.allowedAlgorithms,
                                   allowedKeySetURLs: configuration.allowedKeySetURLs, crypto: crypto)
        let transport = dependencies.transport
        do {
            return try await verifier.verify(compact) { url throws(JWSRejection) in
                if let fetched = keySets[url.absoluteString] { return fetched }
                return try await Self.fetchKeySet(url, transport: transport)
            }.claims
        } catch {
            throw .answerRejected(error)
        }
    }

    /// The key sets of the allow-listed `jku` URLs, fetched now, keyed by URL: what checking an answer signed with a
    /// key the pinned set lacks (the provider rotated its key) needs. Fetched before a refresh grant, so that no grant
    /// is spent on an answer that could not be checked now; none when nothing is allow-listed.
    ///
    /// - Throws: ``OngoingAccessError/answerRejected(_:)`` with ``JWSRejection/keySetUnavailable(_:)`` when one cannot
    ///   be fetched (transient: nothing was sent), ``OngoingAccessError/rateLimited(retryAfter:)`` when the key set's
    ///   host asks to wait (429, or 503 with a `Retry-After`).
    func keySetsForAnswers() async throws(OngoingAccessError) -> [String: JSONWebKeySet] {
        var sets: [String: JSONWebKeySet] = [:]
        for url in configuration.allowedKeySetURLs {
            let response: HTTPResponse
            do {
                response = try await Self.requestKeySet(url, transport: dependencies.transport)
            } catch {
                throw .answerRejected(error)
            }
            if let seconds = RetryAfter.seconds(in: response) { throw .rateLimited(retryAfter: seconds) }
            do {
                sets[url.absoluteString] = try Self.keySet(in: response)
            } catch {
                throw .answerRejected(error)
            }
        }
        return sets
    }

    /// Reads a key set from an allow-listed URL (the verifier has already checked the list), strictly
    /// (`JSONWebKeySet/parse(_:)`).
    static func fetchKeySet(_ url: URL, transport: any HTTPTransport) async throws(JWSRejection) -> JSONWebKeySet {
        try keySet(in: await requestKeySet(url, transport: transport))
    }

    /// The answer of `GET url` for a key set; no answer is ``JWSRejection/keySetUnavailable(_:)``.
    private static func requestKeySet(_ url: URL, transport: any HTTPTransport) async throws(JWSRejection)
        -> HTTPResponse
    {
        do {
            return try await transport.send(HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"]))
        } catch {
            throw .keySetUnavailable(error.localizedDescription)
        }
    }

    /// The key set `response` carries, strictly read; any other answer is ``JWSRejection/keySetUnavailable(_:)``.
    private static func keySet(in response: HTTPResponse) throws(JWSRejection) -> JSONWebKeySet {
        guard response.isSuccess, let keys = try? JSONWebKeySet.parse(response.body) else {
            throw .keySetUnavailable("HTTP \(response.status), not a key set")
        }
        return keys
    }

    /// Reads `{"value", "expires_on"}` members of a token answer into an ``OAuthToken``.
    static func token(from payload: [String: JSONValue]) throws(OngoingAccessError) -> OAuthToken {
        func part(_ name: String) throws(OngoingAccessError) -> (String, Date) {
            guard let object = payload[name]?.objectValue, let value = object["value"]?.stringValue, !value.isEmpty,
                  let expires = object["expires_on"]?.dateValue
            else { throw .malformedAnswer("no \"\(name)\" with value and expires_on") }
            return (value, expires)
        }
        let access = try part("access_token")
        let refresh = try part("refresh_token")
        return OAuthToken(accessToken: access.0, accessTokenExpiresAt: access.1, refreshToken: refresh.0,
                          refreshTokenExpiresAt: refresh.1, tokenType: payload["token_type"]?.stringValue ?? "Bearer")
    }

    /// A `GET` of data under the session, with the access token: `session/<key>/<path…>`, the key and each of
    /// `path` one encoded segment (`URLPathSegment`).
    func data(_ path: [String], session: OngoingAccessSession, token: OAuthToken) async throws(OngoingAccessError) -> JSONValue {
        let url: URL
        do {
            url = try URLPathSegment.appending([session.key] + path, to: endpoint("session"))
        } catch {
            throw .invalidPathSegment(error)
        }
        let request = HTTPRequest(method: .get, url: url, headers: AccessCredential.bearerFields(
            token.accessToken, carrier: .accessToken, merging: ["Accept": "application/json"]))
        let response = try await send(request)
        guard let value = response.jsonBody else { throw .malformedAnswer("the data answer is not JSON") }
        return value
    }
}
