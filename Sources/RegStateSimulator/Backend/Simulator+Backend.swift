import Foundation
import RegState

/// The simulated registration backend: the HTTP contract RegState's backend client speaks.
///
/// All paths are under ``SimulatorConfiguration/backendURL``; bodies are JSON (`Content-Type: application/json`).
///
/// ## Exchange an ID token for a security token
/// `POST /v1/security-token` with
/// `{"id_token": "<JWT>", "installation_id": "<id>", "platform": "ios|android|linux|web|…",
/// "form_factor": "390x844"}`.
/// - `200 {"security_token": "<opaque>", "expires_in": <seconds>, "registered": <bool>}` — the ID token verified
///   (RS256 signature by the provider's key, `iss`, `aud` = the client ID, `exp`); the installation is bound to the
///   token's `sub`; `registered` says whether the backend holds a profile for that user.
/// - `400 {"error": "invalid_request"}` — the body is not JSON or lacks `id_token` / `installation_id`.
/// - `401 {"error": "invalid_id_token"}` — the ID token does not verify or has expired.
/// - `403 {"error": "TOO_MANY_REGISTERED_DEVICES"}` — a new installation beyond
///   ``SimulatorConfiguration/maxDevicesPerUser``.
/// - `403 {"error": "MAX_NUMBER_SECURITY_TOKEN"}` — the installation already holds
///   ``SimulatorConfiguration/maxSecurityTokensPerDevice`` live security tokens.
/// - `403 {"error": "FORCED_LOGOUT"}` — the installation was logged out by the backend (see below).
///
/// Expired security tokens are closed before anything is counted.
///
/// ## Authenticated endpoints (`Authorization: Bearer <security token>`)
/// - `GET /v1/registration` → `200 {"registered": <bool>, "profile": {"sub", "email", "name",
///   "registration_type"} | null}`.
/// - `PUT /v1/profile` with `{"sub", "email", "name", "registration_type": "SOCIAL" | "PASSWORDLESS"}` → `200` with
///   the stored profile; the user is registered from then on. `400 {"error": "invalid_profile"}` for a missing
///   field or unknown type; `403 {"error": "SUBJECT_MISMATCH"}` when `sub` is not the token's user.
/// - `DELETE /v1/installation` → `204`; the installation and its security tokens are gone, freeing a device slot.
/// - `DELETE /v1/security-token` → `204`; that security token is retired (no longer live, no longer counted against
///   ``SimulatorConfiguration/maxSecurityTokensPerDevice``). `404` when
///   ``SimulatorConfiguration/offersSecurityTokenRetirement`` is off.
///
/// The device list (`GET /v1/devices`, `DELETE /v1/devices/<id>`) is in `Simulator+Devices.swift`; the registration design's Check
/// Registration (`GET /v1/check-registration` with the provider's access token) in `Simulator+CheckRegistration.swift`.
///
/// Every authenticated endpoint answers `401 {"error": "token_expired"}` for a missing, unknown or expired security
/// token, and, after ``Simulator/forceLogout(email:)``, `403 {"error": "FORCED_LOGOUT"}` once per installation of
/// that user: the installation and its tokens are then deleted, so later requests with the same token get 401.
extension Simulator {
    func handleBackend(_ request: HTTPRequest, path: String) throws -> HTTPResponse {
        if let answer = handleDevices(request, path: path) { return answer }
        switch (path, request.method) {
        case ("/v1/security-token", .post): return try exchangeSecurityToken(request)
        case ("/v1/registration", .get): return withInstallation(request) { registration(subject: $0.subject) }
        case ("/v1/check-registration", .get): return checkRegistration(request)
        case ("/v1/profile", .put): return withInstallation(request) { updateProfile(request, subject: $0.subject) }
        case ("/v1/installation", .delete):
            return withInstallation(request) { token in
                removeInstallation(token.installationID)
                return HTTPResponse(status: 204)
            }
        case ("/v1/security-token", .delete) where configuration.offersSecurityTokenRetirement:
            return withInstallation(request) { _ in
                if let token = ServerResponse.bearerToken(of: request) { world.securityTokens[mint.storageKey(token)] = nil }
                return HTTPResponse(status: 204)
            }
        case ("/v1/security-token", .delete): return ServerResponse.notFound
        case ("/v1/security-token", _), ("/v1/registration", _), ("/v1/profile", _), ("/v1/installation", _),
             ("/v1/check-registration", _):
            return ServerResponse.methodNotAllowed
        case (let path, .get) where path == "/v1/resource" || path.hasPrefix("/v1/resource/"):
            return handleResource(request, path: path)
        default: return ServerResponse.notFound
        }
    }

    /// `POST /v1/security-token`.
    func exchangeSecurityToken(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let body = request.body, let json = (try? JSONValue.parse(body))?.objectValue,
              let idToken = json["id_token"]?.stringValue,
              let installationID = json["installation_id"]?.stringValue, !installationID.isEmpty
        else { return ServerResponse.backendError(400, "invalid_request") }
        let now = clock.now()
        guard let subject = verifiedSubject(ofIDToken: idToken, now: now) else {
            return ServerResponse.backendError(401, "invalid_id_token")
        }
        closeExpiredSecurityTokens(now: now)
        if let existing = world.installations[installationID] {
            if existing.forcedLogout {
                removeInstallation(installationID)
                return ServerResponse.backendError(403, "FORCED_LOGOUT")
            }
            if existing.subject != subject { removeInstallation(installationID) }
        }
        let platform = json["platform"]?.stringValue ?? "unknown"
        let formFactor = json["form_factor"]?.stringValue ?? "unknown"
        if world.installations[installationID] == nil {
            let devices = world.installations.values.filter { $0.subject == subject }.count
            if let limit = configuration.maxDevicesPerUser, devices >= limit {
                return ServerResponse.backendError(403, "TOO_MANY_REGISTERED_DEVICES")
            }
            world.installations[installationID] = InstallationRecord(
                subject: subject, platform: platform, formFactor: formFactor, registeredAt: now)
        } else {
            world.installations[installationID]?.platform = platform
            world.installations[installationID]?.formFactor = formFactor
        }
        let live = world.securityTokens.values.filter { $0.installationID == installationID }.count
        if let limit = configuration.maxSecurityTokensPerDevice, live >= limit {
            return ServerResponse.backendError(403, "MAX_NUMBER_SECURITY_TOKEN")
        }
        let token = try mint.opaqueToken()
        world.securityTokens[mint.storageKey(token)] = SecurityTokenRecord(
            installationID: installationID, subject: subject,
            expiresAt: now.addingTimeInterval(configuration.securityTokenLifetime))
        return .json(200, [
            "security_token": .string(token),
            "expires_in": .number(configuration.securityTokenLifetime.rounded()),
            "registered": .bool(world.profiles[subject] != nil),
        ])
    }

    /// `GET /v1/registration`.
    func registration(subject: String) -> HTTPResponse {
        let profile = world.profiles[subject]
        return .json(200, ["registered": .bool(profile != nil), "profile": profile?.json ?? .null])
    }

    /// `PUT /v1/profile`.
    func updateProfile(_ request: HTTPRequest, subject: String) -> HTTPResponse {
        guard let body = request.body, let json = (try? JSONValue.parse(body))?.objectValue,
              let sub = json["sub"]?.stringValue, let email = json["email"]?.stringValue,
              let name = json["name"]?.stringValue, let type = json["registration_type"]?.stringValue,
              ["SOCIAL", "PASSWORDLESS"].contains(type)
        else { return ServerResponse.backendError(400, "invalid_profile") }
        guard sub == subject else { return ServerResponse.backendError(403, "SUBJECT_MISMATCH") }
        let profile = ProfileRecord(subject: sub, email: email, name: name, registrationType: type)
        world.profiles[subject] = profile
        return .json(200, profile.json)
    }

    /// Runs `body` for the installation of the request's live security token, or answers 401 / 403 FORCED_LOGOUT.
    func withInstallation(_ request: HTTPRequest, _ body: (SecurityTokenRecord) -> HTTPResponse) -> HTTPResponse {
        guard let token = ServerResponse.bearerToken(of: request),
              let record = world.securityTokens[mint.storageKey(token)],
              record.expiresAt > clock.now(),
              let installation = world.installations[record.installationID]
        else { return ServerResponse.backendError(401, "token_expired") }
        if installation.forcedLogout {
            removeInstallation(record.installationID)
            return ServerResponse.backendError(403, "FORCED_LOGOUT")
        }
        return body(record)
    }

    /// The `sub` of an ID token signed by this world's key for the registered client, not expired: checked as a
    /// relying party would, with the library's ``IDTokenValidator`` (no leeway).
    func verifiedSubject(ofIDToken idToken: String, now: Date) -> String? {
        let validator = IDTokenValidator(issuer: configuration.issuerIdentifier, clientID: configuration.clientID,
                                         leeway: 0, crypto: mint.crypto)
        return try? validator.validate(idToken, keySet: mint.keySet, expectedNonce: nil, now: now).subject
    }

    /// Closes the sessions whose security tokens have expired.
    func closeExpiredSecurityTokens(now: Date) {
        world.securityTokens = world.securityTokens.filter { $0.value.expiresAt > now }
    }

    /// Deletes an installation and every security token it holds.
    func removeInstallation(_ installationID: String) {
        world.installations[installationID] = nil
        world.securityTokens = world.securityTokens.filter { $0.value.installationID != installationID }
    }
}
