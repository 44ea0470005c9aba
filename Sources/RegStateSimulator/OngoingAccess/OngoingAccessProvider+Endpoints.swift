import Foundation
import RegState
import RegStateOngoingAccess

/// The HTTP endpoints: key set, pre-authorization, token (code and refresh), data session and data.
extension OngoingAccessProvider {
    /// Answers one request; a failure rolls the world back and answers 500.
    func serve(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard let path = Simulator.relativePath(of: request.url, under: configuration.baseURL) else {
            throw TransportError.connectionFailed("unknown host \(request.url.host ?? "")")
        }
        let segments = path.split(separator: "/").map(String.init)
        let logged = segments.count > 2 && segments[1] == "session" ? ["v1", "session", ":key"] + segments.dropFirst(3) : segments
        requestLog.append("\(request.method.rawValue) /\(logged.joined(separator: "/"))")
        if let outage {
            var response = ServerResponse.oauthError(outage.status, "temporarily_unavailable", "The provider is down.")
            if let retryAfter = outage.retryAfter { response.headers["Retry-After"] = retryAfter }
            return response
        }
        let before = world
        do {
            let response = try handle(request, segments: segments)
            try persist()
            return response
        } catch {
            world = before
            return ServerResponse.serverError("The ongoing-access provider failed: \(error.localizedDescription)")
        }
    }

    private func handle(_ request: HTTPRequest, segments: [String]) throws -> HTTPResponse {
        switch (request.method, segments) {
        case (.get, ["v1", "jwks"]):
            guard !keySetDown else { return ServerResponse.oauthError(503, "temporarily_unavailable", "The key set is unavailable.") }
            world.counters.keySetFetches += 1
            var keys = keySet.keys
            keys.append(JSONWebKey(publicKey: Self.weakPublicKey, keyID: Self.weakKeyID, algorithm: configuration.signingAlgorithm))
            if let rotatedKey {
                keys.append(JSONWebKey(publicKey: try crypto.publicKey(of: rotatedKey), keyID: Self.rotatedKeyID,
                                       algorithm: configuration.signingAlgorithm))
            }
            return .json(200, ["keys": .array(keys.map { key in
                .object(["kty": .string(key.keyType), "kid": .string(key.keyID ?? ""), "use": "sig",
                         "alg": .string(key.algorithm ?? ""), "n": .string(key.modulus ?? ""), "e": .string(key.exponent ?? "")])
            })])
        case (.post, ["v1", "oauth", "authorize"]): return try preAuthorize(request)
        case (.post, ["v1", "oauth", "token"]): return try token(request)
        case (.post, ["v1", "session"]): return try openSession(request)
        case (.get, let path) where path.count >= 4 && path[0] == "v1" && path[1] == "session":
            return data(request, sessionKey: path[2], rest: Array(path.dropFirst(3)))
        default:
            return ServerResponse.notFound
        }
    }

    /// The claims of the request's PS512 JWT, once its signature, client, nonce and timestamp pass; otherwise the
    /// error answer.
    private func verifiedClaims(_ request: HTTPRequest) throws(Refusal) -> [String: JSONValue] {
        guard let body = request.body, let jwt = (try? JSONValue.parse(body))?["request"]?.stringValue else {
            throw Refusal(response: ServerResponse.oauthError(400, "invalid_request", "no signed request"))
        }
        let appKeys = JSONWebKeySet(keys: configuration.appKeys.map { JSONWebKey(publicKey: $0.value, keyID: $0.key, algorithm: .ps512) })
        guard let claims = try? JWSVerifier(keys: appKeys, allowedAlgorithms: [.ps512], crypto: crypto).verify(jwt).claims else {
            throw Refusal(response: ServerResponse.oauthError(401, "invalid_client", "the request signature is not valid"))
        }
        guard claims["client_id"]?.stringValue == configuration.appID else {
            throw Refusal(response: ServerResponse.oauthError(401, "invalid_client", "unknown client"))
        }
        let now = clock.now()
        guard let nonce = claims["nonce"]?.stringValue, !nonce.isEmpty, world.seenNonces[hash(nonce)] == nil else {
            throw Refusal(response: ServerResponse.oauthError(400, "invalid_request", "missing or replayed nonce"))
        }
        guard let stamp = claims["timestamp"]?.numberValue,
              abs(stamp / 1000 - now.timeIntervalSince1970) <= configuration.requestLeeway
        else { throw Refusal(response: ServerResponse.oauthError(400, "invalid_request", "the timestamp is not recent")) }
        world.seenNonces[hash(nonce)] = now.addingTimeInterval(2 * configuration.requestLeeway)
        return claims
    }

    private func preAuthorize(_ request: HTTPRequest) throws -> HTTPResponse {
        let claims: [String: JSONValue]
        do {
            claims = try verifiedClaims(request)
        } catch {
            return error.response
        }
        guard claims["contract_id"]?.stringValue == configuration.contractID else {
            return ServerResponse.oauthError(400, "invalid_contract", "unknown contract")
        }
        guard let redirect = claims["redirect_uri"]?.stringValue, configuration.redirectURIs.contains(redirect),
              let state = claims["state"]?.stringValue, let challenge = claims["code_challenge"]?.stringValue,
              claims["code_challenge_method"]?.stringValue == "S256",
              let scope = OngoingAccessScope(json: claims["scope"])
        else { return ServerResponse.oauthError(400, "invalid_request", "missing or bad pre-authorization parameters") }
        let now = clock.now()
        let expired = faults[.preAuthorization] == .expiredPreAuthorizationCode
        let expiresAt = expired ? now.addingTimeInterval(-1) : now.addingTimeInterval(configuration.preAuthorizationLifetime)
        let code = try opaqueToken()
        world.preAuthorizations[hash(code)] = PreAuthorizationRecord(
            redirectURI: redirect, state: state, codeChallenge: challenge, scope: scope, expiresAt: expiresAt)
        return try answer(["preauthorization_code": .string(code), "exp": .number(expiresAt.timeIntervalSince1970.rounded(.down))],
                          to: claims, on: .preAuthorization)
    }

    private func token(_ request: HTTPRequest) throws -> HTTPResponse {
        let claims: [String: JSONValue]
        do {
            claims = try verifiedClaims(request)
        } catch {
            return error.response
        }
        let now = clock.now()
        switch claims["grant_type"]?.stringValue {
        case "authorization_code":
            guard let code = claims["code"]?.stringValue, var record = world.codes[hash(code)], !record.redeemed,
                  record.expiresAt > now, claims["redirect_uri"]?.stringValue == record.redirectURI,
                  let verifier = claims["code_verifier"]?.stringValue,
                  Base64URL.encode(crypto.sha256(Data(verifier.utf8))) == record.codeChallenge
            else { return ServerResponse.oauthError(400, "invalid_grant", "the code is unknown, used, expired or unproven") }
            record.redeemed = true
            world.codes[hash(code)] = record
            let grantID = nextIdentifier("grant-")
            world.grants[grantID] = GrantRecord(scope: record.scope,
                                                refreshExpiresAt: now.addingTimeInterval(configuration.refreshTokenLifetime))
            world.counters.tokenExchanges += 1
            return try answer(try issueTokens(grantID: grantID, now: now), to: claims, on: .tokenExchange)
        case "refresh_token":
            guard let refresh = claims["refresh_token"]?.stringValue, let grantID = world.refreshTokens[hash(refresh)],
                  let grant = world.grants[grantID], !grant.revoked, grant.refreshExpiresAt > now
            else { return ServerResponse.oauthError(400, "invalid_grant", "the refresh token is unknown or expired") }
            world.counters.refreshes += 1
            return try answer(try issueTokens(grantID: grantID, now: now), to: claims, on: .refresh)
        default:
            return ServerResponse.oauthError(400, "unsupported_grant_type", "unknown grant type")
        }
    }

    /// A new access token and a new refresh token for `grantID`; the refresh token keeps the grant's expiry.
    private func issueTokens(grantID: String, now: Date) throws -> [String: JSONValue] {
        guard let grant = world.grants[grantID] else { throw OngoingAccessProviderError.world("no grant \(grantID)") }
        let access = try opaqueToken()
        let refresh = try opaqueToken()
        let accessExpiresAt = now.addingTimeInterval(configuration.accessTokenLifetime)
        world.accessTokens[hash(access)] = AccessRecord(grantID: grantID, expiresAt: accessExpiresAt)
        world.refreshTokens[hash(refresh)] = grantID
        return [
            "token_type": "Bearer",
            "access_token": ["value": .string(access), "expires_on": .number(accessExpiresAt.timeIntervalSince1970.rounded(.down))],
            "refresh_token": ["value": .string(refresh),
                              "expires_on": .number(grant.refreshExpiresAt.timeIntervalSince1970.rounded(.down))],
        ]
    }

    private func openSession(_ request: HTTPRequest) throws -> HTTPResponse {
        let claims: [String: JSONValue]
        do {
            claims = try verifiedClaims(request)
        } catch {
            return error.response
        }
        let now = clock.now()
        guard let access = claims["access_token"]?.stringValue, let record = world.accessTokens[hash(access)],
              record.expiresAt > now, let grant = world.grants[record.grantID], !grant.revoked
        else { return ServerResponse.invalidBearerToken("The access token is unknown or expired.") }
        let asked = OngoingAccessScope(json: claims["scope"]) ?? .all
        let scope = Self.intersection(asked, grant.scope)
        let key = try opaqueToken()
        let expiresAt = now.addingTimeInterval(configuration.sessionLifetime)
        world.sessions[hash(key)] = SessionRecord(grantID: record.grantID, scope: scope, expiresAt: expiresAt)
        world.counters.sessions += 1
        return try answer(["session_key": .string(key), "expires_on": .number(expiresAt.timeIntervalSince1970.rounded(.down)),
                           "scope": scope.json], to: claims, on: .session)
    }

    private func data(_ request: HTTPRequest, sessionKey: String, rest: [String]) -> HTTPResponse {
        let now = clock.now()
        guard let access = ServerResponse.bearerToken(of: request), let record = world.accessTokens[hash(access)],
              record.expiresAt > now
        else { return ServerResponse.invalidBearerToken("The access token is unknown or expired.") }
        guard let session = world.sessions[hash(sessionKey)], session.grantID == record.grantID, session.expiresAt > now else {
            return ServerResponse.oauthError(404, "unknown_session", "no such session")
        }
        let files = configuration.files.filter { session.scope.contains($0.info.date) }
        func entry(_ file: OngoingAccessProviderConfiguration.File) -> [String: JSONValue] {
            ["id": .string(file.info.id), "account_id": .string(file.info.accountID),
             "date": .number(file.info.date.timeIntervalSince1970)]
        }
        switch rest {
        case ["accounts"]:
            let accounts = configuration.accounts.filter { account in files.contains { $0.info.accountID == account.id } }
            return .json(200, ["accounts": .array(accounts.map {
                ["id": .string($0.id), "service": .string($0.service), "name": .string($0.name)]
            })])
        case ["files"]:
            return .json(200, ["files": .array(files.map { .object(entry($0)) })])
        case let path where path.count == 2 && path[0] == "files":
            guard let file = files.first(where: { $0.info.id == path[1] }) else {
                return ServerResponse.oauthError(404, "not_found", "no such file in this session's scope")
            }
            var body = entry(file)
            body["content"] = file.content
            return .json(200, .object(body))
        default:
            return ServerResponse.notFound
        }
    }

    /// An error answer a request check produced.
    struct Refusal: Error {
        let response: HTTPResponse
    }

    static func intersection(_ lhs: OngoingAccessScope, _ rhs: OngoingAccessScope) -> OngoingAccessScope {
        let from = [lhs.from, rhs.from].compactMap { $0 }.max()
        let to = [lhs.to, rhs.to].compactMap { $0 }.min()
        return OngoingAccessScope(from: from, to: to)
    }
}
