import Foundation
import RegState

/// The identity provider's routing and its small endpoints: discovery, JWKS, userinfo, revocation, end session.
///
/// Endpoints, all under the issuer:
/// - `GET /.well-known/openid-configuration` — discovery (OpenID Connect Discovery 1.0 §3).
/// - `GET /.well-known/oauth-authorization-server` — RFC 8414 metadata (always lists revocation).
/// - `GET /.well-known/jwks.json` — the signing key as a JWK set.
/// - `GET /authorize` — for browsers; play the user with ``Simulator/authorize(_:as:)`` instead.
/// - `POST /oauth/token` — authorization code, refresh token and passwordless OTP grants.
/// - `POST /passwordless/start` — sends a one-time code to the inbox (Auth0's shape).
/// - `GET|POST /userinfo` — the user's claims for a bearer access token.
/// - `POST /oauth/revoke` — RFC 7009 revocation.
/// - `GET /v2/logout` — end session; redirects to a registered `post_logout_redirect_uri` when given.
/// - `POST /par` — pushed authorization requests (RFC 9126), when ``SimulatorConfiguration/pushedAuthorization`` is on.
/// - `POST /oauth/device/code` — the device authorization grant (RFC 8628), when
///   ``SimulatorConfiguration/offersDeviceAuthorization`` is on.
extension Simulator {
    func handleProvider(_ request: HTTPRequest, path: String) throws -> HTTPResponse {
        if path == "/oauth/token", request.method == .post {
            world.counters.tokenRequests += 1
            if request.formParameters["grant_type"] == "refresh_token" { world.counters.refreshGrants += 1 }
        }
        if path == "/.well-known/jwks.json" { world.counters.keySetRequests = (world.counters.keySetRequests ?? 0) + 1 }
        if configuration.providerDown {
            return ServerResponse.serverError("The identity provider is unavailable.")
        }
        switch (path, request.method) {
        case ("/.well-known/openid-configuration", .get):
            var document = discoveryDocument.objectValue ?? [:]
            // Switched off, like stock django-oauth-toolkit: revocation is only in the RFC 8414 document.
            if !configuration.listsRevocationInDiscovery || !configuration.offersRevocation {
                document["revocation_endpoint"] = nil
            }
            if !configuration.offersEndSession { document["end_session_endpoint"] = nil }
            if !configuration.offersPasswordless { document["grant_types_supported"] = ["authorization_code", "refresh_token"] }
            document["scopes_supported"] = configuration.scopesSupported.map { .array($0.map { .string($0) }) }
            return .json(200, .object(document))
        case ("/.well-known/oauth-authorization-server", .get):
            var document = discoveryDocument.objectValue ?? [:]
            if !configuration.offersRevocation { document["revocation_endpoint"] = nil }
            return .json(200, .object(document))
        case ("/oauth/revoke", _) where !configuration.offersRevocation: return ServerResponse.notFound
        case ("/passwordless/start", _) where !configuration.offersPasswordless: return ServerResponse.notFound
        case ("/par", _) where configuration.pushedAuthorization == .off: return ServerResponse.notFound
        case ("/par", .post): return try pushedAuthorizationEndpoint(request)
        case ("/oauth/device/code", _) where !configuration.offersDeviceAuthorization: return ServerResponse.notFound
        case ("/oauth/device/code", .post): return try deviceAuthorizationEndpoint(request)
        case ("/.well-known/jwks.json", .get):
            let body = (try? JSONEncoder().encode(mint.keySet)).flatMap { try? JSONValue.parse($0) }
            return .json(200, body ?? ["keys": []])
        case ("/authorize", .get):
            return ServerResponse.oauthError(
                400, "invalid_request", "The simulator has no browser: call Simulator.authorize(_:as:) instead.")
        case ("/oauth/token", .post): return try tokenEndpoint(request)
        case ("/passwordless/start", .post): return try passwordlessStart(request)
        case ("/userinfo", .get), ("/userinfo", .post): return userinfo(request)
        case ("/oauth/revoke", .post): return revoke(request)
        case ("/v2/logout", .get): return endSession(request)
        case ("/.well-known/openid-configuration", _), ("/.well-known/oauth-authorization-server", _),
             ("/.well-known/jwks.json", _), ("/authorize", _),
             ("/oauth/token", _), ("/passwordless/start", _), ("/userinfo", _), ("/oauth/revoke", _),
             ("/v2/logout", _), ("/par", _), ("/oauth/device/code", _):
            return ServerResponse.methodNotAllowed
        default: return ServerResponse.notFound
        }
    }

    /// The grant type of Auth0's passwordless OTP grant.
    static let passwordlessGrantType = "http://auth0.com/oauth/grant-type/passwordless/otp"

    /// The scopes the provider grants; others are dropped from the granted scope.
    static let supportedScopes = ["openid", "profile", "email", "offline_access"]

    var discoveryDocument: JSONValue {
        guard case .object(var members) = standardDiscoveryDocument else { return standardDiscoveryDocument }
        if configuration.dpop != .off { members["dpop_signing_alg_values_supported"] = ["ES256"] }
        members.merge(pushedAuthorizationDiscovery) { _, pushed in pushed }
        if configuration.offersDeviceAuthorization {
            members["device_authorization_endpoint"] = .string(configuration.issuerIdentifier + "/oauth/device/code")
        }
        for (name, value) in configuration.discoveryOverrides { members[name] = .string(value) }
        return .object(members)
    }

    private var standardDiscoveryDocument: JSONValue {
        let issuer = configuration.issuerIdentifier
        return [
            "issuer": .string(issuer),
            "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(issuer + "/oauth/token"),
            "userinfo_endpoint": .string(issuer + "/userinfo"),
            "jwks_uri": .string(issuer + "/.well-known/jwks.json"),
            "revocation_endpoint": .string(issuer + "/oauth/revoke"),
            "end_session_endpoint": .string(issuer + "/v2/logout"),
            "authorization_response_iss_parameter_supported": .bool(configuration.sendsIssuerInCallback),
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "code_challenge_methods_supported": ["S256"],
            "grant_types_supported": ["authorization_code", "refresh_token", .string(Self.passwordlessGrantType)],
            "id_token_signing_alg_values_supported": .array(
                (configuration.advertisedIDTokenSigningAlgorithms ?? [mint.algorithm.rawValue]).map { .string($0) }),
            "token_endpoint_auth_methods_supported": ["none"],
            "revocation_endpoint_auth_methods_supported": ["none"],
            "subject_types_supported": ["public"],
            "scopes_supported": .array(Self.supportedScopes.map { .string($0) }),
            "claims_supported": ["sub", "iss", "aud", "exp", "iat", "auth_time", "acr", "nonce", "email",
                                 "email_verified", "name"],
            "acr_values_supported": .array(configuration.acrValuesSupported.map { .string($0) }),
        ]
    }

    /// `GET|POST /userinfo`: the claims of the access token's user, or 401 with a bearer challenge.
    func userinfo(_ request: HTTPRequest) -> HTTPResponse {
        switch bearerUser(of: request) {
        case .success(let user):
            return .json(200, ["sub": .string(configuration.userinfoSubject ?? user.subject), "email": .string(user.email), "email_verified": true,
                               "name": .string(user.name)])
        case .failure(let refusal):
            return refusal.response
        }
    }

    /// The user whose live access token `request` carries as its bearer token, or why there is none.
    ///
    /// A DPoP-bound token (RFC 9449 §7) must come as `Authorization: DPoP` with a valid proof by its key
    /// (``checkResourceProof(_:token:jkt:)``); presented as `Bearer` it is refused.
    func bearerUser(of request: HTTPRequest) -> Result<SimulatorUser, BearerRefusal> {
        guard let (scheme, token) = ServerResponse.authorization(of: request) else {
            return .failure(BearerRefusal(reason: "no bearer token", response: HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])))
        }
        func refuse(_ description: String) -> Result<SimulatorUser, BearerRefusal> {
            .failure(BearerRefusal(reason: description, response: ServerResponse.invalidBearerToken(description)))
        }
        guard let record = world.accessTokens[mint.storageKey(token)] else { return refuse("The access token is unknown or expired.") }
        guard record.expiresAt > clock.now() else { return refuse("The access token has expired.") }
        guard !record.revoked, world.families[record.familyID]?.revoked != true else {
            return refuse("The access token has been revoked.")
        }
        guard let user = world.users.values.first(where: { $0.subject == record.subject }) else {
            return refuse("The access token's user no longer exists.")
        }
        if let refusal = checkResourceProof(request, scheme: scheme, token: token, jkt: record.jkt) {
            return .failure(refusal)
        }
        return .success(user)
    }

    /// `POST /oauth/revoke` (RFC 7009): 200 for a known client whatever the token; a refresh token takes its family
    /// (and the family's access tokens) with it.
    func revoke(_ request: HTTPRequest) -> HTTPResponse {
        let form = request.formParameters
        guard form["client_id"] == configuration.clientID else {
            return ServerResponse.oauthError(401, "invalid_client", "Unknown client.")
        }
        guard let token = form["token"], !token.isEmpty else {
            return ServerResponse.oauthError(400, "invalid_request", "The token parameter is required.")
        }
        let key = mint.storageKey(token)
        if let refresh = world.refreshTokens[key] {
            revokeFamily(refresh.familyID)
            world.counters.revokedTokens += 1
        } else if world.accessTokens[key] != nil {
            world.accessTokens[key]?.revoked = true
            world.counters.revokedTokens += 1
        }
        return HTTPResponse(status: 200, headers: ["Cache-Control": "no-store"])
    }

    /// `GET /v2/logout`: ends the browser session, then redirects to `post_logout_redirect_uri` when it is
    /// registered, else a plain 200. A `client_id` of another client is refused (400).
    func endSession(_ request: HTTPRequest) -> HTTPResponse {
        let query = FormEncoding.queryItems(of: request.url)
        if let clientID = query["client_id"], clientID != configuration.clientID {
            return ServerResponse.oauthError(400, "invalid_request", "Unknown client_id.")
        }
        world.browserSession = nil
        world.browserSessionAuthTime = nil
        world.browserSessionACR = nil
        guard let target = query["post_logout_redirect_uri"], configuration.accepts(redirectURI: target) else {
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("Signed out.\n".utf8))
        }
        var location = target
        if let state = query["state"] {
            location += (target.contains("?") ? "&" : "?") + "state=" + FormEncoding.escape(state)
        }
        return HTTPResponse(status: 302, headers: ["Location": location])
    }

    /// Revokes every token of a family: its refresh tokens, and its access tokens through the family flag.
    func revokeFamily(_ familyID: String) {
        world.families[familyID]?.revoked = true
    }
}
