import Foundation
import RegState

/// `POST <issuer>/oauth/token`: the authorization-code grant with PKCE, the refresh-token grant with rotation and
/// reuse detection, and (in `Simulator+Passwordless.swift`) the passwordless OTP grant.
///
/// Errors follow RFC 6749 §5.2: `400 {"error", "error_description"}`; an unknown `client_id` is `401 invalid_client`.
/// Every token response has `access_token`, `token_type: "Bearer"`, `expires_in`, `scope`, an `id_token` when the
/// scope has `openid`, and a `refresh_token` when the scope has `offline_access` (or always, when
/// ``SimulatorConfiguration/requiresOfflineAccessForRefreshToken`` is `false`).
extension Simulator {
    func tokenEndpoint(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = request.formParameters
        guard let clientID = form["client_id"], !clientID.isEmpty else {
            return ServerResponse.oauthError(400, "invalid_request", "The client_id parameter is required.")
        }
        guard clientID == configuration.clientID else {
            return ServerResponse.oauthError(401, "invalid_client", "Unknown client.")
        }
        let jkt: String?
        switch checkTokenRequestProof(request) {
        case .success(let thumbprint): jkt = thumbprint
        case .failure(let refusal): return refusal.response
        }
        switch form["grant_type"] {
        case "authorization_code": return try authorizationCodeGrant(form, jkt: jkt)
        case "refresh_token": return try refreshTokenGrant(form, jkt: jkt)
        case Self.passwordlessGrantType: return try passwordlessGrant(form, jkt: jkt)
        case Self.deviceCodeGrantType where configuration.offersDeviceAuthorization: return try deviceCodeGrant(form, jkt: jkt)
        case nil, "": return ServerResponse.oauthError(400, "invalid_request", "The grant_type parameter is required.")
        default: return ServerResponse.oauthError(400, "unsupported_grant_type", "The grant type is not supported.")
        }
    }

    /// `grant_type=authorization_code`: single-use code, exact redirect URI, PKCE S256 verifier.
    /// With DPoP, a code requested with `dpop_jkt` is redeemable only with a proof by that key (RFC 9449 §10), and
    /// a proof binds the new family to its key.
    func authorizationCodeGrant(_ form: [String: String], jkt: String?) throws -> HTTPResponse {
        guard let code = form["code"], !code.isEmpty else {
            return ServerResponse.oauthError(400, "invalid_request", "The code parameter is required.")
        }
        let key = mint.storageKey(code)
        let now = clock.now()
        guard let record = world.codes[key], record.expiresAt > now else {
            return ServerResponse.oauthError(400, "invalid_grant", "The authorization code is invalid or expired.")
        }
        guard !record.redeemed else {
            // RFC 6749 §4.1.2: a code used twice revokes what it issued.
            if let familyID = record.familyID { revokeFamily(familyID) }
            return ServerResponse.oauthError(
                400, "invalid_grant", "The authorization code has already been used; its tokens are revoked.")
        }
        guard record.clientID == form["client_id"] else {
            return ServerResponse.oauthError(400, "invalid_grant", "The code was issued to another client.")
        }
        guard form["redirect_uri"] == record.redirectURI else {
            return ServerResponse.oauthError(
                400, "invalid_grant", "The redirect_uri does not match the authorization request.")
        }
        guard let verifier = form["code_verifier"], (43...128).contains(verifier.count) else {
            return ServerResponse.oauthError(
                400, "invalid_grant", "A code_verifier of 43 to 128 characters is required.")
        }
        guard Base64URL.encode(mint.crypto.sha256(Data(verifier.utf8))) == record.codeChallenge else {
            return ServerResponse.oauthError(400, "invalid_grant", "The code_verifier does not match the challenge.")
        }
        guard let user = world.users.values.first(where: { $0.subject == record.subject }) else {
            return ServerResponse.oauthError(400, "invalid_grant", "The code's user no longer exists.")
        }
        if let bound = record.dpopJKT, configuration.dpop.enforces, bound != jkt {
            return ServerResponse.oauthError(400, "invalid_grant", "The code is bound to another DPoP key (dpop_jkt).")
        }
        let familyID = nextIdentifier("family-")
        world.families[familyID] = TokenFamily(
            subject: user.subject, clientID: record.clientID, scope: record.scope, authTime: record.authTime, acr: record.acr,
            jkt: jkt)
        world.codes[key]?.redeemed = true
        world.codes[key]?.familyID = familyID
        return try tokenResponse(familyID: familyID, user: user, nonce: record.nonce)
    }

    /// `grant_type=refresh_token`: rotates the refresh token; a used one revokes its whole family.
    /// A family bound to a DPoP key is renewed only with a proof by that key (RFC 9449 §5); the refusal changes
    /// nothing, so the real session holding the key is untouched.
    func refreshTokenGrant(_ form: [String: String], jkt: String?) throws -> HTTPResponse {
        guard let token = form["refresh_token"], !token.isEmpty else {
            return ServerResponse.oauthError(400, "invalid_request", "The refresh_token parameter is required.")
        }
        if configuration.refusesRefresh {
            return refreshRefused("The provider refuses to renew this session.")
        }
        if configuration.answersRefreshMalformed {
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{\"access_tok".utf8))
        }
        let key = mint.storageKey(token)
        guard let record = world.refreshTokens[key], let family = world.families[record.familyID] else {
            return refreshRefused("The refresh token is invalid or expired.")
        }
        guard family.clientID == form["client_id"] else {
            return refreshRefused("The refresh token was issued to another client.")
        }
        guard !family.revoked else {
            return refreshRefused("The refresh token has been revoked.")
        }
        if let bound = family.jkt, bound != jkt {
            return refreshRefused(jkt == nil ? "The refresh token is DPoP-bound: a proof is required."
                                             : "The refresh token is bound to another DPoP key.")
        }
        if record.used, configuration.refreshReuseGrace > 0, let usedAt = record.usedAt,
           clock.now().timeIntervalSince(usedAt) < configuration.refreshReuseGrace,
           let user = world.users.values.first(where: { $0.subject == family.subject }) {
            // The retry of a rotation whose answer was lost: answer again (with new tokens), revoke nothing.
            return try tokenResponse(familyID: record.familyID, user: user, nonce: nil, refreshToken: .always)
        }
        guard !record.used else {
            revokeFamily(record.familyID)
            return refreshRefused("Refresh token reuse detected: every token of this grant is revoked.")
        }
        if let expiresAt = record.expiresAt, expiresAt <= clock.now() {
            return refreshRefused("The refresh token has expired.")
        }
        guard let user = world.users.values.first(where: { $0.subject == family.subject }) else {
            return refreshRefused("The refresh token's user no longer exists.")
        }
        guard configuration.rotatesRefreshTokens else {
            return try tokenResponse(familyID: record.familyID, user: user, nonce: nil, refreshToken: .never)
        }
        world.refreshTokens[key]?.used = true
        world.refreshTokens[key]?.usedAt = clock.now()
        return try tokenResponse(familyID: record.familyID, user: user, nonce: nil, refreshToken: .always)
    }

    /// A refusal of a refresh token in the configured ``RefreshRefusalStyle``.
    func refreshRefused(_ description: String) -> HTTPResponse {
        switch configuration.refreshRefusal {
        case .oauthError: ServerResponse.oauthError(400, "invalid_grant", description)
        case .bareStatus(let status): HTTPResponse(status: status, headers: ["Cache-Control": "no-store"])
        }
    }

    /// Mints the tokens of one grant or rotation in `familyID` and answers with them.
    ///
    /// - Parameters:
    ///   - nonce: The authorization request's nonce, carried into the ID token (never on refresh or OTP).
    ///   - refreshToken: Whether a new refresh token is issued: by the scope rule, always (a rotating refresh grant)
    ///     or never (a refresh grant that keeps the presented one).
    func tokenResponse(familyID: String, user: SimulatorUser, nonce: String?, refreshToken issue: RefreshTokenIssue = .byScope) throws
        -> HTTPResponse
    {
        guard let family = world.families[familyID] else {
            return ServerResponse.serverError("The grant vanished.")
        }
        let now = clock.now()
        let scopes = family.scope.split(separator: " ").map(String.init)
        let accessToken = try mint.opaqueToken()
        world.accessTokens[mint.storageKey(accessToken)] = AccessTokenRecord(
            subject: user.subject, clientID: family.clientID, scope: family.scope,
            expiresAt: now.addingTimeInterval(configuration.accessTokenLifetime), familyID: familyID, jkt: family.jkt)
        var body: [String: JSONValue] = [
            "access_token": .string(accessToken),
            "token_type": family.jkt == nil ? "Bearer" : "DPoP",
            "expires_in": .number(configuration.accessTokenLifetime.rounded()),
            "scope": .string(family.scope),
        ]
        let issuesRefreshToken = switch issue {
        case .always: true
        case .never: false
        case .byScope: scopes.contains("offline_access") || !configuration.requiresOfflineAccessForRefreshToken
        }
        if issuesRefreshToken {
            let refreshToken = try mint.opaqueToken()
            world.refreshTokens[mint.storageKey(refreshToken)] = RefreshTokenRecord(
                familyID: familyID, expiresAt: configuration.refreshTokenLifetime.map { now.addingTimeInterval($0) })
            body["refresh_token"] = .string(refreshToken)
            // Keycloak's non-standard member: it lets a client know, offline, when every token has expired.
            if let lifetime = configuration.refreshTokenLifetime {
                body["refresh_expires_in"] = .number(lifetime.rounded())
            }
        }
        if scopes.contains("openid") {
            body["id_token"] = .string(try idToken(for: user, clientID: family.clientID, authTime: family.authTime, acr: family.acr,
                                                   accessToken: accessToken, nonce: nonce, refreshing: issue != .byScope))
        }
        return .json(200, .object(body))
    }

    /// An RS256 ID token (OIDC Core §2) for `user`, as real providers shape it: one audience and so no `azp`; `at_hash` binding it to the access token
    /// issued with it (OIDC Core 3.1.3.6: the left half of the access token's SHA-256, base64url).
    func idToken(for user: SimulatorUser, clientID: String, authTime: Date, acr: String? = nil, accessToken: String,
                 nonce: String?, refreshing: Bool = false) throws -> String {
        let now = clock.now()
        var claims: [String: JSONValue] = [
            "iss": .string(configuration.issuerIdentifier),
            "sub": .string(user.subject),
            "aud": .string(clientID),
            "at_hash": .string(Base64URL.encode(Data(mint.crypto.sha256(Data(accessToken.utf8)).prefix(16)))),
            "iat": .number(now.timeIntervalSince1970.rounded(.down)),
            "exp": .number(now.addingTimeInterval(configuration.idTokenLifetime).timeIntervalSince1970.rounded(.down)),
            "auth_time": .number(authTime.timeIntervalSince1970.rounded(.down)),
            "email": .string(user.email),
            "email_verified": true,
            "name": .string(user.name),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        if let acr { claims["acr"] = .string(acr) }
        if configuration.stepUp == .omitsAuthTime { claims["auth_time"] = nil }
        return try signedIDToken(claims, refreshing: refreshing)
    }

    /// The requested scope reduced to the supported scopes, in request order, without repeats.
    static func grantedScope(_ requested: String?, supported: [String] = supportedScopes) -> String {
        var granted: [String] = []
        for scope in (requested ?? "openid").split(separator: " ").map(String.init)
        where supported.contains(scope) && !granted.contains(scope) {
            granted.append(scope)
        }
        return granted.joined(separator: " ")
    }
}

/// Whether a token response carries a new refresh token.
enum RefreshTokenIssue {
    /// When the granted scope asks for one (`offline_access`), or the world does not require it.
    case byScope
    /// Always: a rotating refresh grant.
    case always
    /// Never: a refresh grant that keeps the presented refresh token.
    case never
}
