import Foundation

/// How RegState talks to one OpenID provider: who it is, who we are, and where the provider sends the user back.
public struct OIDCConfiguration: Sendable, Equatable {
    /// The issuer identifier, exactly as the provider's discovery document states it (compared as a string).
    public var issuer: URL
    /// The public client's identifier at the provider.
    public var clientID: String
    /// Where the provider redirects after authorization: a custom scheme (`com.example.app:/callback`) or a loopback
    /// URL (`http://127.0.0.1:PORT/callback`, see `LoopbackRedirectListener` in `RegStateLoopback`).
    public var redirectURI: URL
    /// The scopes to request; `offline_access` asks for a refresh token. `openid` is always sent, and an optional
    /// scope the provider's discovery does not list is left out (``requestedScopes(supported:)``).
    public var scopes: [String]
    /// Clock skew tolerated when checking an ID token's `exp` and `iat`, in seconds.
    public var idTokenLeeway: TimeInterval
    /// Extra authorization request parameters (for example `audience` at Auth0, or `prompt`).
    public var additionalAuthorizationParameters: [String: String]
    /// Where passwordless email login starts; `nil` disables it. Auth0 serves it at `<issuer>/passwordless/start`.
    public var passwordlessStartURL: URL?
    /// How long to wait, in seconds, before asking the token endpoint once more after an unexplained 4xx answer to a
    /// refresh (no readable OAuth error body); the same answer again is a refusal (see ``OIDCError/isRefusal``).
    public var unexplainedAnswerRetryDelay: TimeInterval = 1
    /// Where the provider sends the browser after RP-initiated logout (`post_logout_redirect_uri`, registered at the
    /// provider); `nil` leaves the parameter out and the provider shows its own page.
    public var postLogoutRedirectURI: URL?
    /// Whether authorization requests are pushed (RFC 9126); by default when discovery lists the endpoint.
    public var pushedAuthorization = PushedAuthorizationMode.whenOffered
    /// Where the device authorization grant (RFC 8628) asks for a user code when discovery announces no
    /// `device_authorization_endpoint` (an announced one wins); `nil`: only the announced one.
    public var deviceAuthorizationEndpoint: URL?
    /// How recent and strong every social login's sign-in must be (`max_age`, `acr_values`), unless the call names
    /// its own (``RegStateService/beginSocialRegistration(prompt:requirement:)``); ``AuthenticationRequirement/none``
    /// by default: nothing is sent and the ID token's `auth_time` and `acr` are not required.
    public var authenticationRequirement = AuthenticationRequirement.none

    /// The scopes requested when none are given: an ID token with profile and email, and a refresh token.
    public static let defaultScopes = ["openid", "profile", "email", "offline_access"]

    /// The scopes asked for only when a published `scopes_supported` lists them (many providers refuse a whole
    /// request over one unknown scope).
    public static let optionalScopes: Set<String> = ["profile", "email", "offline_access"]

    /// The scopes an authorization request asks for at a provider that publishes `supported` (`nil`: it does not).
    ///
    /// `openid` first, then the configured ``scopes`` in order without repeats, less an ``optionalScopes`` member
    /// that `supported` does not list; any other scope is asked for as configured (the app named it on purpose).
    public func requestedScopes(supported: [String]?) -> [String] {
        var requested = ["openid"]
        for scope in scopes where !scope.isEmpty && !requested.contains(scope) {
            if let supported, Self.optionalScopes.contains(scope), !supported.contains(scope) { continue }
            requested.append(scope)
        }
        return requested
    }

    /// Creates a configuration; each parameter sets the property of its name. `passwordlessStartURL` defaults to
    /// `<issuer>/passwordless/start`.
    public init(
        issuer: URL,
        clientID: String,
        redirectURI: URL,
        scopes: [String] = OIDCConfiguration.defaultScopes,
        idTokenLeeway: TimeInterval = 60,
        additionalAuthorizationParameters: [String: String] = [:],
        passwordlessStartURL: URL? = nil
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.idTokenLeeway = idTokenLeeway
        self.additionalAuthorizationParameters = additionalAuthorizationParameters
        self.passwordlessStartURL = passwordlessStartURL ?? OIDCConfiguration.url(issuer, appending: "/passwordless/start")
    }

    /// The issuer as the string the discovery document and ID tokens must carry.
    public var issuerIdentifier: String { issuer.absoluteString }

    /// The discovery document's URL: the issuer, without a trailing slash, followed by
    /// `/.well-known/openid-configuration` (OIDC Discovery §4), which keeps any path (`https://host/o`).
    public var discoveryURL: URL {
        OIDCConfiguration.url(issuer, appending: "/.well-known/openid-configuration")
    }

    /// Where RFC 8414 authorization-server metadata may be: the RFC's form (the well-known path inserted before the
    /// issuer's path) and the appended form some providers serve.
    public var authorizationServerMetadataURLs: [URL] {
        let appended = OIDCConfiguration.url(issuer, appending: "/.well-known/oauth-authorization-server")
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else { return [appended] }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.path = "/.well-known/oauth-authorization-server" + path
        guard let inserted = components.url, inserted != appended else { return [appended] }
        return [inserted, appended]
    }

    /// `base` without its trailing slashes, followed by `suffix` (which starts with `/`).
    static func url(_ base: URL, appending suffix: String) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + suffix) ?? base.appendingPathComponent(String(suffix.dropFirst()))
    }
}
