import Foundation
import RegState
import RegStateOngoingAccess

/// The knobs of a simulated world: where it lives, who may use it, how long things last, and how it misbehaves.
///
/// Every field has a default that matches what the `regstate` CLI and most tests want, so
/// `SimulatorConfiguration()` is a working provider and backend. Change knobs at runtime through the ``Simulator``
/// setters; the configuration itself is not persisted with the world.
public struct SimulatorConfiguration: Sendable, Equatable {
    /// The issuer identifier; every provider endpoint lives under it. Default `https://idp.regstate.sim`.
    public var issuer: URL
    /// The registration backend's base URL. Default `https://api.regstate.sim`.
    public var backendURL: URL
    /// The one registered public client. Default `regstate-cli`.
    public var clientID: String
    /// Redirect URIs accepted by exact string comparison. Default `com.example.app:/callback`.
    public var redirectURIs: [String]
    /// The path of accepted loopback redirects (RFC 8252 §7.3): `http://127.0.0.1:<any port><path>` and
    /// `http://[::1]:<any port><path>`; `nil` accepts no loopback redirect. Default `/callback`.
    public var loopbackRedirectPath: String?
    /// Seconds an access token is valid. Default 3600.
    public var accessTokenLifetime: TimeInterval
    /// Seconds between an ID token's `iat` and `exp`. Default 3600.
    public var idTokenLifetime: TimeInterval
    /// Seconds a refresh token is valid from its issue (each rotation starts a new period); `nil` never expires.
    /// Default 30 days.
    public var refreshTokenLifetime: TimeInterval?
    /// Seconds an authorization code may wait before being redeemed. Default 600.
    public var authorizationCodeLifetime: TimeInterval
    /// Seconds a passwordless one-time code is valid. Default 300.
    public var otpLifetime: TimeInterval
    /// Wrong one-time codes tolerated before the current code is burned. Default 5.
    public var maxOTPAttempts: Int
    /// Codes one address may be sent within 60 seconds; one more start answers `429 too_many_requests` with
    /// `Retry-After`. Default 3.
    public var maxOTPSendsPerMinute = 3
    /// Seconds a backend security token is valid. Default 3600.
    public var securityTokenLifetime: TimeInterval
    /// Installations one user may register with the backend; `nil` is unlimited. Default `nil`.
    public var maxDevicesPerUser: Int?
    /// Live security tokens one installation may hold; `nil` is unlimited. Default `nil`.
    public var maxSecurityTokensPerDevice: Int?
    /// Whether the backend offers `DELETE /v1/security-token`, which retires a replaced security token. Default
    /// `true`; without it the endpoint answers `404` and a replaced token lives until it expires.
    public var offersSecurityTokenRetirement = true
    /// Seconds every request waits (real time) before it is answered. Default 0.
    public var latency: TimeInterval
    /// When `true`, every request throws `TransportError.offline` without reaching the world. Default `false`.
    public var isOffline: Bool
    /// Whether every request is answered by a captive portal instead (`200` with a Wi-Fi sign-in page in HTML, as a
    /// hotel or airport network does before its terms are accepted): the device has a network, but not the internet.
    public var behindCaptivePortal = false
    /// When `true`, every refresh-token grant answers `400 invalid_grant`: the provider's explicit refusal to renew.
    /// Default `false`.
    public var refusesRefresh: Bool
    /// When `true`, every provider endpoint answers `500 server_error` (the backend stays up). Default `false`.
    public var providerDown: Bool
    /// When `true`, every refresh-token grant answers `200` with a body that is not a token response (a broken
    /// proxy, a truncated answer) and rotates nothing. Default `false`.
    public var answersRefreshMalformed = false
    /// Holds every request without answering while set (a provider that accepts connections and never answers);
    /// held requests answer normally once it is cleared. Default `false`.
    public var holdsRequests = false
    /// When `false`, refresh grants do not rotate: the answer has no `refresh_token` and the one presented stays
    /// valid, as at providers that keep one refresh token for the whole grant. Default `true`.
    public var rotatesRefreshTokens = true
    /// Seconds during which a just-retired refresh token is still accepted (default 0: strict, as most providers
    /// ship). Within the grace a retried refresh with the token the last rotation retired succeeds (with new
    /// tokens) instead of revoking the family, as at Okta, Cognito, Ory Hydra and django-oauth-toolkit
    /// (`REFRESH_TOKEN_GRACE_PERIOD_SECONDS`): it covers a client that lost the answer of a rotation.
    public var refreshReuseGrace: TimeInterval = 0
    /// Seconds the in-process transport holds an answer after the simulator has applied its request (default 0):
    /// the provider's state has changed (a refresh token rotated) while the answer is still on its way, the window in
    /// which a client that is killed loses it. For tests of interrupted renewals.
    public var answerDelay: TimeInterval = 0
    /// When `true` (the default, as at real providers), a refresh token is issued only when the granted scope
    /// contains `offline_access`; when `false`, every token response carries one.
    public var requiresOfflineAccessForRefreshToken: Bool
    /// Whether redirects carry RFC 9207's `iss` and discovery advertises it (default `true`). Providers such as
    /// django-oauth-toolkit do neither; `false` behaves like them.
    public var sendsIssuerInCallback = true
    /// Whether the OpenID discovery document lists `revocation_endpoint` (default `true`). Stock django-oauth-toolkit
    /// lists it only in its RFC 8414 metadata, which the simulator always serves; `false` behaves like it.
    public var listsRevocationInDiscovery = true
    /// The algorithm ID tokens are signed with: `.rs256` (the default), `.ps256` (the world's RSA key, published
    /// with `alg: PS256`) or `.es256` (a P-256 key made when the simulator is created, published beside the RSA key;
    /// it is not saved with a persisted world, so a reopened world signs with a new one). Read once, when the
    /// ``Simulator`` is created.
    public var idTokenSigningAlgorithm: SignatureAlgorithm = .rs256
    /// What discovery lists as `id_token_signing_alg_values_supported`; `nil` (the default) lists the signing
    /// algorithm alone. Set it to play a provider that advertises `none` or does not list what it signs with.
    public var advertisedIDTokenSigningAlgorithms: [String]?
    /// When set, userinfo answers with this `sub` instead of the access token's user's: a provider (or a proxy)
    /// handing out someone else's claims. Default `nil`.
    public var userinfoSubject: String?
    /// Discovery members served as given instead of the simulator's own (for example `"token_endpoint":
    /// "http://idp.regstate.sim/oauth/token"`, a downgrade to plain HTTP). Default none.
    public var discoveryOverrides: [String: String] = [:]
    /// Requests the simulator answers with a redirect instead of serving them (see ``SimulatorRedirect``): to another
    /// origin, or to another path of the same one. Default none.
    public var redirects: [SimulatorRedirect] = []
    /// Whether the provider offers RFC 7009 revocation (default `true`); `false` behaves like Glewlwyd as provisioned
    /// in `Tests/Peers/glewlwyd`: neither metadata document lists an endpoint and `/oauth/revoke` is not found.
    public var offersRevocation = true
    /// Whether discovery lists `end_session_endpoint` (RP-initiated logout; default `true`). The endpoint answers
    /// either way, as a browser visit would.
    public var offersEndSession = true
    /// Whether the provider offers passwordless email sign-in (default `true`); `false` behaves like
    /// django-oauth-toolkit: discovery's `grant_types_supported` lacks the one-time-code grant and
    /// `/passwordless/start` is not found.
    public var offersPasswordless = true
    /// Whether answers carry an HTTP `Date` header from the simulator's clock (default `true`, as real servers do);
    /// `false` plays a provider (or a proxy) that strips it, so the device cannot estimate the provider's clock from it.
    public var sendsDateHeader = true
    /// How a refresh token the provider will not renew is refused (default ``RefreshRefusalStyle/oauthError``);
    /// ``RefreshRefusalStyle/bareStatus(_:)`` answers as Glewlwyd does, `400` with an empty body.
    public var refreshRefusal = RefreshRefusalStyle.oauthError
    /// The scopes discovery lists as `scopes_supported` (default `openid profile email offline_access`); `nil` leaves
    /// the member out, as some providers do. Requested scopes outside the list are dropped from the grant, or refused.
    public var scopesSupported: [String]? = ["openid", "profile", "email", "offline_access"]
    /// When `true`, an authorization request for a scope outside ``scopesSupported`` is refused with `invalid_scope`
    /// (the whole request, as many providers do); when `false` (the default) such a scope is silently dropped.
    public var refusesUnknownScopes = false
    /// Scripted users; any other address is created on first sign-in. Default ``SimulatorUser/defaults``.
    public var users: [SimulatorUser]
    /// The RSA key a new world signs with; `nil` (the default) generates a fresh 2048-bit key. A test suite can
    /// generate one key and share it to skip key generation in every test. A reopened world keeps its saved key.
    public var signingKey: RSAPrivateKey?
    /// DPoP (RFC 9449) as an authorization and resource server enforces it. Default ``SimulatorDPoPMode/off``.
    public var dpop = SimulatorDPoPMode.off
    /// Server nonces for DPoP proofs (RFC 9449 §8, §9). Default ``SimulatorDPoPNonce/off``.
    public var dpopNonce = SimulatorDPoPNonce.off
    /// Pushed authorization requests (RFC 9126): off (the default), offered or required.
    public var pushedAuthorization = SimulatorPushedAuthorization.off
    /// Seconds a pushed `request_uri` lives (`expires_in`; default 60). Each is also single use.
    public var pushedRequestLifetime: TimeInterval = 60
    /// Whether the provider offers the device authorization grant (RFC 8628): `POST /oauth/device/code`, announced
    /// in discovery as `device_authorization_endpoint`.
    public var offersDeviceAuthorization = true
    /// Seconds a device code and its user code are valid (`expires_in`).
    public var deviceCodeLifetime: TimeInterval = 600
    /// The polling interval the device authorization answer announces (`interval`); `nil` leaves it out (the client
    /// then waits RFC 8628's default 5 s).
    public var deviceInterval: TimeInterval? = 5
    /// Whether the answer carries `verification_uri_complete` (the page with the code filled in).
    public var sendsVerificationURIComplete = true
    /// An OAuth error code every push is refused with (`400`, or `401` for `invalid_client`), as a provider whose
    /// policy turns the client away; `nil` (the default) checks each push on its merits.
    public var pushedAuthorizationRefusal: String?
    /// Whether a login's `max_age` and `acr_values` are honoured (``SimulatorStepUp/honours``, the default) or
    /// ignored, with or without `auth_time` in the ID token.
    public var stepUp = SimulatorStepUp.honours
    /// The authentication classes the provider offers (`acr_values_supported`), weakest first: a sign-in without
    /// `acr_values` is of the first.
    public var acrValuesSupported = ["urn:regstate:sim:password", "urn:regstate:sim:mfa"]

    /// Creates a configuration; every parameter defaults to the value documented on its property.
    public init(
        issuer: URL = SimulatorConfiguration.literalURL("https://idp.regstate.sim"),
        backendURL: URL = SimulatorConfiguration.literalURL("https://api.regstate.sim"),
        clientID: String = "regstate-cli",
        redirectURIs: [String] = ["com.example.app:/callback"],
        loopbackRedirectPath: String? = "/callback",
        accessTokenLifetime: TimeInterval = 3600,
        idTokenLifetime: TimeInterval = 3600,
        refreshTokenLifetime: TimeInterval? = 30 * 24 * 3600,
        authorizationCodeLifetime: TimeInterval = 600,
        otpLifetime: TimeInterval = 300,
        maxOTPAttempts: Int = 5,
        securityTokenLifetime: TimeInterval = 3600,
        maxDevicesPerUser: Int? = nil,
        maxSecurityTokensPerDevice: Int? = nil,
        latency: TimeInterval = 0,
        isOffline: Bool = false,
        refusesRefresh: Bool = false,
        providerDown: Bool = false,
        requiresOfflineAccessForRefreshToken: Bool = true,
        users: [SimulatorUser] = SimulatorUser.defaults,
        signingKey: RSAPrivateKey? = nil
    ) {
        self.issuer = issuer
        self.backendURL = backendURL
        self.clientID = clientID
        self.redirectURIs = redirectURIs
        self.loopbackRedirectPath = loopbackRedirectPath
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.authorizationCodeLifetime = authorizationCodeLifetime
        self.otpLifetime = otpLifetime
        self.maxOTPAttempts = maxOTPAttempts
        self.securityTokenLifetime = securityTokenLifetime
        self.maxDevicesPerUser = maxDevicesPerUser
        self.maxSecurityTokensPerDevice = maxSecurityTokensPerDevice
        self.latency = latency
        self.isOffline = isOffline
        self.refusesRefresh = refusesRefresh
        self.providerDown = providerDown
        self.requiresOfflineAccessForRefreshToken = requiresOfflineAccessForRefreshToken
        self.users = users
        self.signingKey = signingKey
    }

    /// The issuer identifier as it appears in tokens and discovery: the URL's text without a trailing slash.
    public var issuerIdentifier: String { Self.trimmed(issuer) }

    /// The URL of the provider endpoint at `path` (for example `/oauth/token`).
    public func providerURL(_ path: String) -> URL { Self.literalURL(issuerIdentifier + path) }

    /// The URL of the backend endpoint at `path` (for example `/v1/security-token`).
    public func backendEndpoint(_ path: String) -> URL { Self.literalURL(Self.trimmed(backendURL) + path) }

    /// Whether `redirectURI` is registered: listed exactly, or a loopback URI on the loopback path.
    public func accepts(redirectURI: String) -> Bool {
        if redirectURIs.contains(redirectURI) { return true }
        guard let path = loopbackRedirectPath,
              let components = URLComponents(string: redirectURI),
              components.scheme == "http", components.port != nil,
              components.query == nil, components.fragment == nil,
              components.path == path
        else { return false }
        return components.host == "127.0.0.1" || components.host == "[::1]" || components.host == "::1"
    }

    /// A URL from text known to be valid, for defaults; an invalid literal is a programming error.
    public static func literalURL(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure("Invalid URL literal") }
        return url
    }

    static func trimmed(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
