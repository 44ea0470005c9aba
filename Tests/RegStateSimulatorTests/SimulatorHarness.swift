import Foundation
import RegState
import RegStateOngoingAccess
import RegStateTesting
import RegStateSimulator
import Testing

/// The tokens of one token response.
struct IssuedTokens {
    var accessToken: String
    var refreshToken: String?
    var idToken: String?
    var expiresIn: Int?
    var scope: String?
}

/// A client's-eye view of a simulator: builds requests exactly as an OAuth client would and sends them through the
/// simulator's transport.
struct SimulatorHarness {
    let simulator: Simulator
    let clock: ManualClock
    let configuration: SimulatorConfiguration

    static let redirectURI = "com.example.app:/callback"
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-the-test-verifier"

    /// One signing key for every test that does not need its own, so the suites do not generate dozens of keys.
    static let sharedKey: RSAPrivateKey? = try? SystemCrypto().generateRSAPrivateKey(bits: 2048)

    /// The default configuration with the shared key.
    static var defaultConfiguration: SimulatorConfiguration {
        var configuration = SimulatorConfiguration()
        configuration.signingKey = sharedKey
        return configuration
    }

    init(
        configuration: SimulatorConfiguration = SimulatorHarness.defaultConfiguration,
        clock: ManualClock = ManualClock(),
        persistence: URL? = nil
    ) throws {
        self.clock = clock
        self.configuration = configuration
        simulator = try Simulator(configuration: configuration, clock: clock, persistence: persistence)
    }

    var transport: any HTTPTransport { simulator.transport }

    func providerURL(_ path: String) -> URL { configuration.providerURL(path) }
    func backendURL(_ path: String) -> URL { configuration.backendEndpoint(path) }

    static func challenge(for verifier: String) -> String {
        Base64URL.encode(SystemCrypto().sha256(Data(verifier.utf8)))
    }

    /// An authorization URL; every parameter can be overridden or removed (`nil`).
    func authorizationURL(_ overrides: [String: String?] = [:]) -> URL {
        var parameters: [String: String?] = [
            "response_type": "code", "client_id": configuration.clientID, "redirect_uri": Self.redirectURI,
            "scope": "openid profile email offline_access", "state": "state-123", "nonce": "nonce-456",
            "code_challenge": Self.challenge(for: Self.verifier), "code_challenge_method": "S256",
        ]
        for (name, value) in overrides { parameters[name] = value }
        var components = URLComponents(url: providerURL("/authorize"), resolvingAgainstBaseURL: false)
        components?.queryItems = parameters.keys.sorted().compactMap { name in
            parameters[name].flatMap { $0 }.map { URLQueryItem(name: name, value: $0) }
        }
        return components?.url ?? providerURL("/authorize")
    }

    /// Plays the user and returns the code from the redirect.
    func authorizationCode(as email: String = "alice@example.com", _ overrides: [String: String?] = [:]) async throws
        -> String
    {
        let redirect = try await simulator.authorize(authorizationURL(overrides), as: email)
        return try #require(query(of: redirect)["code"])
    }

    func query(of url: URL) -> [String: String] {
        var result: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            result[item.name] = item.value
        }
        return result
    }

    /// `POST /oauth/token` with `parameters` plus the client ID.
    func tokenRequest(_ parameters: [(String, String)]) async throws -> HTTPResponse {
        try await transport.send(.form(
            url: providerURL("/oauth/token"), parameters: [("client_id", configuration.clientID)] + parameters))
    }

    func exchange(code: String, verifier: String = SimulatorHarness.verifier, redirectURI: String = redirectURI)
        async throws -> HTTPResponse
    {
        try await tokenRequest([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", verifier),
        ])
    }

    func refresh(_ refreshToken: String) async throws -> HTTPResponse {
        try await tokenRequest([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    /// A full code flow for `email`, returning the tokens.
    func signIn(as email: String = "alice@example.com", _ overrides: [String: String?] = [:]) async throws
        -> IssuedTokens
    {
        let code = try await authorizationCode(as: email, overrides)
        return try tokens(from: try await exchange(code: code))
    }

    func tokens(from response: HTTPResponse) throws -> IssuedTokens {
        #expect(response.status == 200)
        let body = try #require(response.jsonBody)
        return IssuedTokens(
            accessToken: try #require(body["access_token"]?.stringValue),
            refreshToken: body["refresh_token"]?.stringValue, idToken: body["id_token"]?.stringValue,
            expiresIn: body["expires_in"]?.intValue, scope: body["scope"]?.stringValue)
    }

    func userinfo(_ accessToken: String) async throws -> HTTPResponse {
        try await transport.send(HTTPRequest(
            method: .get, url: providerURL("/userinfo"), headers: ["Authorization": "Bearer \(accessToken)"]))
    }

    func startPasswordless(_ email: String) async throws -> HTTPResponse {
        try await transport.send(.json(.post, url: providerURL("/passwordless/start"), body: [
            "client_id": .string(configuration.clientID), "connection": "email", "email": .string(email),
            "send": "code",
        ]))
    }

    func otpGrant(_ email: String, _ code: String) async throws -> HTTPResponse {
        try await tokenRequest([
            ("grant_type", "http://auth0.com/oauth/grant-type/passwordless/otp"), ("username", email),
            ("otp", code), ("realm", "email"), ("scope", "openid profile email offline_access"),
        ])
    }

    func revoke(_ token: String, hint: String = "refresh_token") async throws -> HTTPResponse {
        try await transport.send(.form(url: providerURL("/oauth/revoke"), parameters: [
            ("token", token), ("token_type_hint", hint), ("client_id", configuration.clientID),
        ]))
    }

    /// `POST /v1/security-token`.
    func securityToken(idToken: String, installation: String, platform: String = "linux") async throws
        -> HTTPResponse
    {
        try await transport.send(.json(.post, url: backendURL("/v1/security-token"), body: [
            "id_token": .string(idToken), "installation_id": .string(installation), "platform": .string(platform),
            "form_factor": "390x844",
        ]))
    }

    func backend(_ method: HTTPRequest.Method, _ path: String, token: String, body: JSONValue? = nil) async throws
        -> HTTPResponse
    {
        let headers = ["Authorization": "Bearer \(token)"]
        if let body {
            return try await transport.send(.json(method, url: backendURL(path), body: body, headers: headers))
        }
        return try await transport.send(HTTPRequest(method: method, url: backendURL(path), headers: headers))
    }
}

extension HTTPResponse {
    /// The `error` member of a JSON error body.
    var errorCode: String? { jsonBody?["error"]?.stringValue }
    /// The `error_description` member of a JSON error body.
    var errorDescription: String? { jsonBody?["error_description"]?.stringValue }
}
