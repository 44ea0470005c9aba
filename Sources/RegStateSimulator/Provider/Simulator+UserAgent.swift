import Foundation
import RegState

/// The simulated user at the authorization endpoint: what a browser would do with an authorization URL.
extension Simulator {
    /// Plays `email` signing in and consenting at the authorization endpoint, and returns the URL the browser would
    /// be redirected to: `redirect_uri?code=…&state=…&iss=…`.
    ///
    /// The request is checked like a real server checks it. A request it cannot redirect back for throws; a request
    /// it can answer with an error redirects with `error` and `error_description` (`unsupported_response_type`,
    /// `invalid_request` for a missing or `plain` PKCE challenge, `invalid_scope` without `openid`). The code
    /// remembers the client, redirect URI, challenge, nonce, scope, user and the time of authentication.
    ///
    /// - Parameters:
    ///   - authorizationURL: The URL the app would open in a browser.
    ///   - email: Who signs in; any address works, a new one creates its user.
    /// - Returns: The redirect URL, carrying a code or an error.
    /// - Throws: ``SimulatorError`` (unknown client, unregistered redirect URI, not the authorization endpoint,
    ///   invalid email, provider down, a plain request when PAR is required, a dead `request_uri`),
    ///   `TransportError.offline` when offline.
    public func authorize(_ authorizationURL: URL, as email: String) throws -> URL {
        let checked = try checkAuthorizationRequest(authorizationURL)
        let request: ValidAuthorizationRequest
        switch checked {
        case .redirect(let url): return url
        case .valid(let valid): request = valid
        }
        guard EmailAddress.isValid(email) else { throw SimulatorError.invalidEmail(email) }
        let user = signIn(email: email)
        let acr = configuration.stepUp == .honours
            ? request.acrValues.first(where: configuration.acrValuesSupported.contains) : nil
        world.browserSession = user.email
        world.browserSessionAuthTime = clock.now()
        world.browserSessionACR = acr ?? configuration.acrValuesSupported.first
        return try issueCode(for: request, to: user)
    }

    /// Whether the browser's session can answer `url` without asking the user (``SimulatorStepUp``): with
    /// ``SimulatorStepUp/honours`` only when it signed in within the request's `max_age` and with a class its
    /// `acr_values` names (when it names any).
    func sessionAnswers(_ url: URL) throws -> Bool {
        guard configuration.stepUp == .honours else { return true }
        let query = try authorizationParameters(of: url, consume: false)
        if let maxAge = query["max_age"].flatMap(Int.init) {
            let signedIn = world.browserSessionAuthTime ?? .distantPast
            if clock.now().timeIntervalSince(signedIn) > TimeInterval(maxAge) { return false }
        }
        let acrValues = (query["acr_values"] ?? "").split(separator: " ").map(String.init)
        if !acrValues.isEmpty, !acrValues.contains(world.browserSessionACR ?? "") { return false }
        return true
    }

    /// Plays a browser that keeps its provider session: the user the browser is still signed in as is signed in again
    /// without being asked, unless there is no such session or the request says `prompt=login` or
    /// `prompt=select_account`; then `email` signs in (and becomes the browser's session).
    ///
    /// - Returns: The redirect URL, carrying a code or an error.
    /// - Throws: the same errors as ``authorize(_:as:)``.
    public func authorizeInBrowser(_ authorizationURL: URL, otherwise email: String) throws -> URL {
        let prompt = try authorizationParameters(of: authorizationURL, consume: false)["prompt"]
        if let session = world.browserSession, prompt != "login", prompt != "select_account" {
            // Asked again (max_age passed, a stronger class wanted): the session's user signs in once more.
            guard try sessionAnswers(authorizationURL) else { return try authorize(authorizationURL, as: session) }
            return try reuseSession(authorizationURL, as: session)
        }
        return try authorize(authorizationURL, as: email)
    }

    /// The browser's session answers `url` without asking: the code carries the session's `auth_time` and `acr`.
    private func reuseSession(_ url: URL, as email: String) throws -> URL {
        let request: ValidAuthorizationRequest
        switch try checkAuthorizationRequest(url) {
        case .redirect(let redirect): return redirect
        case .valid(let valid): request = valid
        }
        let user = signIn(email: email)
        return try issueCode(for: request, to: user, authTime: world.browserSessionAuthTime,
                             acr: world.browserSessionACR)
    }

    /// The email the simulated browser is signed in as at the provider; `nil` after an end-session request.
    public var browserSessionEmail: String? { world.browserSession }

    func issueCode(for request: ValidAuthorizationRequest, to user: SimulatorUser, authTime: Date? = nil,
                   acr: String? = nil) throws -> URL {
        let now = clock.now()
        let code: String
        do {
            code = try mint.opaqueToken()
        } catch {
            throw SimulatorError.signingKeyUnusable("the random generator failed")
        }
        world.codes[mint.storageKey(code)] = AuthorizationCodeRecord(
            clientID: request.clientID, redirectURI: request.redirectURI, codeChallenge: request.codeChallenge,
            nonce: request.nonce, scope: request.scope, subject: user.subject, authTime: authTime ?? now,
            acr: acr ?? world.browserSessionACR, expiresAt: now.addingTimeInterval(configuration.authorizationCodeLifetime), dpopJKT: request.dpopJKT)
        try persistIfChanged()
        return try redirect(request.redirectURI, [("code", code), ("state", request.state)])
    }

    /// Plays the user refusing consent, and returns the redirect URL
    /// `redirect_uri?error=access_denied&error_description=…&state=…&iss=…`.
    ///
    /// - Throws: the same ``SimulatorError`` cases as ``authorize(_:as:)`` for a request that cannot be redirected.
    public func deny(_ authorizationURL: URL) throws -> URL {
        switch try checkAuthorizationRequest(authorizationURL) {
        case .redirect(let url): return url
        case .valid(let request):
            return try redirect(request.redirectURI, [
                ("error", "access_denied"), ("error_description", "The user denied the request."),
                ("state", request.state),
            ])
        }
    }

    /// An authorization request that passed every check.
    struct ValidAuthorizationRequest {
        var clientID: String
        var redirectURI: String
        var codeChallenge: String
        var nonce: String?
        var scope: String
        var state: String?
        /// `dpop_jkt` (RFC 9449 §10).
        var dpopJKT: String?
        /// `acr_values`, in order.
        var acrValues: [String] = []
    }

    /// The outcome of checking an authorization request.
    enum AuthorizationCheck {
        /// The request may proceed.
        case valid(ValidAuthorizationRequest)
        /// The request fails with an error the server redirects back with.
        case redirect(URL)
    }

    func checkAuthorizationRequest(_ url: URL) throws -> AuthorizationCheck {
        if configuration.isOffline { throw TransportError.offline }
        guard Self.relativePath(of: url, under: configuration.issuer) == "/authorize" else {
            throw SimulatorError.notAuthorizationEndpoint
        }
        requestLog.append("GET \(url.path)")
        if configuration.providerDown { throw SimulatorError.providerUnavailable }
        let query = try authorizationParameters(of: url, consume: true)
        let clientID = query["client_id"] ?? ""
        guard clientID == configuration.clientID else { throw SimulatorError.unknownClient(clientID) }
        let redirectURI = query["redirect_uri"] ?? ""
        guard configuration.accepts(redirectURI: redirectURI) else {
            throw SimulatorError.unregisteredRedirectURI(redirectURI)
        }
        let state = query["state"]
        func failure(_ error: String, _ description: String) throws -> AuthorizationCheck {
            .redirect(try redirect(
                redirectURI, [("error", error), ("error_description", description), ("state", state)]))
        }
        guard query["response_type"] == "code" else {
            return try failure("unsupported_response_type", "Only response_type=code is supported.")
        }
        guard let challenge = query["code_challenge"], !challenge.isEmpty else {
            return try failure("invalid_request", "PKCE is required: code_challenge is missing.")
        }
        guard query["code_challenge_method"] == "S256" else {
            return try failure("invalid_request", "code_challenge_method must be S256.")
        }
        let supported = configuration.scopesSupported ?? Self.supportedScopes
        if configuration.refusesUnknownScopes,
           let unknown = (query["scope"] ?? "").split(separator: " ").first(where: { !supported.contains(String($0)) }) {
            return try failure("invalid_scope", "The scope \(unknown) is not supported.")
        }
        let scope = Self.grantedScope(query["scope"], supported: supported)
        guard scope.split(separator: " ").contains("openid") else {
            return try failure("invalid_scope", "The scope must include openid.")
        }
        return .valid(ValidAuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, codeChallenge: challenge, nonce: query["nonce"],
            scope: scope, state: state, dpopJKT: query["dpop_jkt"],
            acrValues: (query["acr_values"] ?? "").split(separator: " ").map(String.init)))
    }

    /// `redirectURI` with `parameters` (nil values left out) and, unless switched off, `iss` appended (RFC 9207).
    func redirect(_ redirectURI: String, _ parameters: [(String, String?)]) throws -> URL {
        let pairs = parameters.compactMap { name, value in value.map { (name, $0) } }
            + (configuration.sendsIssuerInCallback ? [("iss", configuration.issuerIdentifier)] : [])
        let separator = redirectURI.contains("?") ? "&" : "?"
        guard let url = URL(string: redirectURI + separator + FormEncoding.encode(pairs)) else {
            throw SimulatorError.unregisteredRedirectURI(redirectURI)
        }
        return url
    }
}
