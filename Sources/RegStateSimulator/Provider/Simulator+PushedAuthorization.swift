import Foundation
import RegState

/// Pushed authorization requests (RFC 9126): `POST <issuer>/par` takes the authorization parameters and answers a
/// single-use `request_uri` that lives ``SimulatorConfiguration/pushedRequestLifetime`` seconds; the authorization
/// endpoint then takes `client_id` and `request_uri` only. Knobs: offered or required
/// (``SimulatorPushedAuthorization``), the lifetime, and a refusal of every push.
extension Simulator {
    /// The prefix of every `request_uri` (RFC 9126 §2.2).
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"

    /// Sets whether PAR is off, offered or required, and (when given) how long a pushed `request_uri` lives.
    public func setPushedAuthorization(_ mode: SimulatorPushedAuthorization, lifetime: TimeInterval? = nil) {
        configuration.pushedAuthorization = mode
        if let lifetime { configuration.pushedRequestLifetime = max(1, lifetime) }
    }

    /// Makes every pushed `request_uri` `characters` longer (0: the usual short reference), like a provider whose
    /// reference carries the whole request: for tests of the client's bound on it.
    public func setPushedRequestURIPadding(_ characters: Int) { pushedRequestURIPadding = max(0, characters) }

    /// Makes every push answer the OAuth error `code` (`nil`: each push is checked on its merits).
    public func setPushedAuthorizationRefusal(_ code: String?) { configuration.pushedAuthorizationRefusal = code }

    /// How many pushed requests are waiting to be used (neither used nor expired).
    public var pendingPushedRequests: Int {
        let now = clock.now()
        return (world.pushedRequests ?? [:]).values.filter { $0.expiresAt > now }.count
    }

    /// `POST /par`: checks the client, the redirect URI, PKCE and the DPoP proof like the authorization and token
    /// endpoints do, and answers `201 {"request_uri", "expires_in"}`; a refusal is an RFC 6749 §5.2 error body
    /// (`401 invalid_client` for an unknown client, `400` otherwise; `invalid_dpop_proof` for a bad proof or one
    /// whose key is not `dpop_jkt`'s).
    func pushedAuthorizationEndpoint(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = request.formParameters
        if let code = configuration.pushedAuthorizationRefusal {
            return ServerResponse.oauthError(code == "invalid_client" ? 401 : 400, code, "The provider refuses this push.")
        }
        guard let clientID = form["client_id"], !clientID.isEmpty else {
            return ServerResponse.oauthError(400, "invalid_request", "The client_id parameter is required.")
        }
        guard clientID == configuration.clientID else {
            return ServerResponse.oauthError(401, "invalid_client", "Unknown client.")
        }
        if let refusal = pushRefusal(form) { return refusal }
        let proofJKT: String?
        switch checkTokenRequestProof(request) {
        case .success(let thumbprint): proofJKT = thumbprint
        case .failure(let refusal): return refusal.response
        }
        if let proofJKT, let bound = form["dpop_jkt"], bound != proofJKT {
            return ServerResponse.oauthError(400, "invalid_dpop_proof", "dpop_jkt is not the proof's key.")
        }
        let requestURI: String
        do {
            requestURI = Self.requestURIPrefix + (try mint.opaqueToken()) + String(repeating: "p", count: pushedRequestURIPadding)
        } catch {
            return ServerResponse.serverError("The random generator failed.")
        }
        let now = clock.now()
        var pending = (world.pushedRequests ?? [:]).filter { $0.value.expiresAt > now }
        pending[mint.storageKey(requestURI)] = PushedRequestRecord(
            parameters: form, clientID: clientID,
            expiresAt: now.addingTimeInterval(configuration.pushedRequestLifetime), proofJKT: proofJKT)
        world.pushedRequests = pending
        try persistIfChanged()
        return .json(201, ["request_uri": .string(requestURI), "expires_in": .number(configuration.pushedRequestLifetime)],
                     headers: ["Cache-Control": "no-store"])
    }

    /// Why the pushed parameters are refused at once (RFC 9126 §2.1 checks them as the authorization endpoint
    /// would), or `nil`.
    private func pushRefusal(_ form: [String: String]) -> HTTPResponse? {
        if form["request_uri"] != nil {
            return ServerResponse.oauthError(400, "invalid_request", "request_uri cannot be pushed.")
        }
        guard configuration.accepts(redirectURI: form["redirect_uri"] ?? "") else {
            return ServerResponse.oauthError(400, "invalid_request", "The redirect_uri is not registered.")
        }
        guard form["response_type"] == "code" else {
            return ServerResponse.oauthError(400, "unsupported_response_type", "Only response_type=code is supported.")
        }
        guard let challenge = form["code_challenge"], !challenge.isEmpty, form["code_challenge_method"] == "S256" else {
            return ServerResponse.oauthError(400, "invalid_request", "PKCE with S256 is required.")
        }
        return nil
    }

    /// The parameters an authorization URL stands for: its own query, or with `request_uri` the pushed ones (with the
    /// push's proof key as `dpop_jkt` when it had none). `consume` uses the `request_uri` up (single use, even when
    /// the request is refused afterwards); without it the pushed parameters are only looked at.
    ///
    /// - Throws: ``SimulatorError/pushedAuthorizationRequired`` for a plain request when PAR is required,
    ///   ``SimulatorError/invalidRequestURI`` for an unknown, used or expired `request_uri` or another client's.
    func authorizationParameters(of url: URL, consume: Bool) throws -> [String: String] {
        let query = FormEncoding.queryItems(of: url)
        guard let requestURI = query["request_uri"] else {
            if configuration.pushedAuthorization == .required { throw SimulatorError.pushedAuthorizationRequired }
            return query
        }
        let key = mint.storageKey(requestURI)
        guard configuration.pushedAuthorization != .off, let record = world.pushedRequests?[key] else {
            throw SimulatorError.invalidRequestURI
        }
        if consume {
            world.pushedRequests?[key] = nil
            try persistIfChanged()
        }
        guard record.clientID == query["client_id"], record.expiresAt > clock.now() else {
            throw SimulatorError.invalidRequestURI
        }
        var parameters = record.parameters
        if parameters["dpop_jkt"] == nil, let proofJKT = record.proofJKT { parameters["dpop_jkt"] = proofJKT }
        return parameters
    }

    /// The discovery members of PAR, when it is on.
    var pushedAuthorizationDiscovery: [String: JSONValue] {
        guard configuration.pushedAuthorization != .off else { return [:] }
        return [
            "pushed_authorization_request_endpoint": .string(configuration.issuerIdentifier + "/par"),
            "require_pushed_authorization_requests": .bool(configuration.pushedAuthorization == .required),
        ]
    }
}
