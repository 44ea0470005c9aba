import Foundation

/// The default ``RegistrationBackend``: JSON over HTTP under a base URL, `https` (or loopback `http`) only; its
/// endpoints and answers are the backend contract in `docs/Internals-Grants.md`.
package struct HTTPRegistrationBackend: RegistrationBackend {
    /// The backend's base URL; endpoint paths are appended to it (a trailing slash is ignored).
    package let baseURL: URL
    /// Whether the backend offers `DELETE /v1/security-token` (``retireSecurityToken(_:)``).
    package let retiresSecurityTokens: Bool
    private let transport: any HTTPTransport

    /// Creates a client of the backend at `baseURL` (for example `https://api.example.com`), sending over `transport`.
    package init(baseURL: URL, transport: any HTTPTransport = URLSessionTransport(), retiresSecurityTokens: Bool = false) {
        self.baseURL = baseURL
        self.transport = transport
        self.retiresSecurityTokens = retiresSecurityTokens
    }

    /// `POST /v1/security-token`.
    package func securityToken(idToken: String, installation: InstallationInfo) async throws(BackendError)
        -> SecurityTokenGrant
    {
        let body: JSONValue = [
            "id_token": .string(idToken),
            "installation_id": .string(installation.installationID),
            "platform": .string(installation.platform),
            "form_factor": .string(installation.formFactor),
        ]
        let response = try await send(.json(.post, url: endpoint("/v1/security-token"), body: body))
        let object = try Self.object(of: response, "security token response")
        guard let token = object["security_token"]?.stringValue, !token.isEmpty else {
            throw .malformedResponse("no security_token")
        }
        guard let expiresIn = object["expires_in"]?.lifetimeValue else { throw .malformedResponse("no expires_in in range") }
        return SecurityTokenGrant(securityToken: token, expiresIn: expiresIn,
                                  registered: object["registered"]?.boolValue ?? false)
    }

    /// `GET /v1/registration`.
    package func registration(securityToken: String) async throws(BackendError) -> RegistrationStatus {
        let response = try await send(.get, endpoint("/v1/registration"), bearer: securityToken)
        return try Self.status(Self.object(of: response, "registration response"))
    }

    /// `{"registered", "profile": {"sub", "email", "name", "registration_type"} | null}`.
    static func status(_ object: [String: JSONValue]) throws(BackendError) -> RegistrationStatus {
        guard let registered = object["registered"]?.boolValue else { throw .malformedResponse("no registered") }
        var profile: BackendProfile?
        switch object["profile"] {
        case nil, .null: profile = nil
        case .object(let fields):
            guard let subject = fields["sub"]?.stringValue, !subject.isEmpty else {
                throw .malformedResponse("the profile has no sub")
            }
            profile = BackendProfile(
                subject: subject, email: fields["email"]?.stringValue, name: fields["name"]?.stringValue,
                registrationType: fields["registration_type"]?.stringValue.flatMap(RegistrationType.init(rawValue:)))
        default: throw .malformedResponse("the profile is not an object")
        }
        return RegistrationStatus(registered: registered, profile: profile)
    }

    /// `PUT /v1/profile`; the name sent is the profile's ``Profile/displayName`` and a missing email is sent empty.
    package func updateProfile(_ profile: Profile, registrationType: RegistrationType, securityToken: String)
        async throws(BackendError)
    {
        let body: JSONValue = [
            "sub": .string(profile.subject),
            "email": .string(profile.email ?? ""),
            "name": .string(profile.displayName),
            "registration_type": .string(registrationType.rawValue),
        ]
        try await send(.put, endpoint("/v1/profile"), bearer: securityToken, body: body)
    }

    /// `DELETE /v1/installation`.
    package func deleteInstallation(securityToken: String) async throws(BackendError) {
        try await send(.delete, endpoint("/v1/installation"), bearer: securityToken)
    }

    /// `DELETE /v1/security-token` with the replaced token, when the backend offers it; otherwise 404
    /// `retire_unsupported` and nothing is sent.
    package func retireSecurityToken(_ securityToken: String) async throws(BackendError) {
        guard retiresSecurityTokens else { throw .unexpectedStatus(404, code: "retire_unsupported") }
        try await send(.delete, endpoint("/v1/security-token"), bearer: securityToken)
    }

    // MARK: - Helpers

    /// The error a non-2xx backend response stands for.
    static func failure(_ response: HTTPResponse) -> BackendError {
        if let seconds = RetryAfter.seconds(in: response) { return .rateLimited(retryAfter: seconds) }
        let code = response.jsonBody?["error"]?.stringValue
        switch (response.status, code) {
        case (401, "invalid_id_token"): return .invalidIDToken
        case (401, _): return .unauthorized
        case (403, "FORCED_LOGOUT"): return .forcedLogout
        case (403, "TOO_MANY_REGISTERED_DEVICES"): return .tooManyRegisteredDevices
        case (403, "MAX_NUMBER_SECURITY_TOKEN"): return .maxSecurityTokens
        default: return .unexpectedStatus(response.status, code: code)
        }
    }

    /// The JSON object a successful `response` carries (`what` it is names it in the error when it carries none).
    static func object(of response: HTTPResponse, _ what: String) throws(BackendError) -> [String: JSONValue] {
        guard let object = response.jsonBody?.objectValue else { throw .malformedResponse("the \(what) is not JSON") }
        return object
    }

    /// Sends a request to `url` (with `body` as JSON, when given), authorized by `token` as Bearer
    /// (``AccessCredential``, the one writer of that header).
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ url: URL, bearer token: String, body: JSONValue? = nil)
        async throws(BackendError) -> HTTPResponse
    {
        let headers = AccessCredential.bearerFields(token, carrier: .securityToken,
                                                    merging: ["Accept": "application/json"])
        guard let body else { return try await send(HTTPRequest(method: method, url: url, headers: headers)) }
        return try await send(.json(method, url: url, body: body, headers: headers))
    }

    /// `path` under ``baseURL``, joined as the issuer's well-known paths are (``OIDCConfiguration/url(_:appending:)``).
    func endpoint(_ path: String) -> URL {
        OIDCConfiguration.url(baseURL, appending: path)
    }

    /// Sends `request`, which must go to an `https` (or loopback `http`) URL: a token never travels in clear text.
    /// Returns only a successful (2xx) response: any other is the error it stands for (``failure(_:)``).
    @discardableResult
    func send(_ request: HTTPRequest) async throws(BackendError) -> HTTPResponse {
        guard TransportSecurity.allows(request.url) else { throw .insecureURL }
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw .transport(error)
        }
        guard response.isSuccess else { throw Self.failure(response) }
        return response
    }
}
