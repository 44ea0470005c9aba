import Foundation

/// The members of an OpenID provider's discovery document (OIDC Discovery §3) that RegState uses, trusted only once
/// its `issuer` is the configured one (`OIDCClient/metadata()`); unknown members are ignored.
package struct ProviderMetadata: Sendable, Equatable {
    /// The issuer identifier; must equal the configured issuer exactly.
    package var issuer: String
    /// Where the user is sent to authorize.
    package var authorizationEndpoint: URL
    /// Where codes, refresh tokens and one-time codes are exchanged for tokens.
    package var tokenEndpoint: URL
    /// Where an access token buys the user's claims, if offered.
    package var userinfoEndpoint: URL?
    /// Where the signing keys are published.
    package var jwksURI: URL
    /// RFC 7009 token revocation, if offered.
    package var revocationEndpoint: URL?
    /// RP-initiated logout, if offered.
    package var endSessionEndpoint: URL?
    /// Whether the provider adds RFC 9207's `iss` to authorization responses (then it must be checked).
    package var authorizationResponseIssParameterSupported: Bool?
    /// PKCE methods the provider accepts (`S256`).
    package var codeChallengeMethodsSupported: [String]?
    /// Grant types the provider accepts.
    package var grantTypesSupported: [String]?
    /// `id_token_signing_alg_values_supported`: the algorithms the provider may sign ID tokens with.
    package var idTokenSigningAlgValuesSupported: [String]?
    /// `scopes_supported`: the scopes the provider says it knows; `nil` when it does not publish the list.
    package var scopesSupported: [String]?
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the proof algorithms the provider accepts; `nil` when it
    /// does not offer DPoP.
    package var dpopSigningAlgValuesSupported: [String]? = nil
    /// `pushed_authorization_request_endpoint` (RFC 9126 §5): where authorization parameters are pushed; `nil` when
    /// the provider does not offer pushed authorization requests.
    package var pushedAuthorizationRequestEndpoint: URL? = nil
    /// `require_pushed_authorization_requests` (RFC 9126 §5): whether the provider accepts only pushed authorization
    /// requests.
    package var requirePushedAuthorizationRequests: Bool? = nil
    /// `device_authorization_endpoint` (RFC 8628 §4): where a device without a browser asks for a user code; `nil`
    /// when the provider does not announce the device authorization grant.
    package var deviceAuthorizationEndpoint: URL? = nil

    /// Creates metadata, as a test or a configuration without discovery would.
    package init(
        issuer: String,
        authorizationEndpoint: URL,
        tokenEndpoint: URL,
        userinfoEndpoint: URL? = nil,
        jwksURI: URL,
        revocationEndpoint: URL? = nil,
        endSessionEndpoint: URL? = nil,
        authorizationResponseIssParameterSupported: Bool? = nil,
        codeChallengeMethodsSupported: [String]? = nil,
        grantTypesSupported: [String]? = nil,
        idTokenSigningAlgValuesSupported: [String]? = nil,
        scopesSupported: [String]? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.jwksURI = jwksURI
        self.revocationEndpoint = revocationEndpoint
        self.endSessionEndpoint = endSessionEndpoint
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.grantTypesSupported = grantTypesSupported
        self.idTokenSigningAlgValuesSupported = idTokenSigningAlgValuesSupported
        self.scopesSupported = scopesSupported
    }

    /// Every endpoint the document names, with its member name: what must be `https` (or loopback) before it is used.
    var namedEndpoints: [(name: String, url: URL)] {
        let endpoints: [(String, URL?)] = [
            ("authorization_endpoint", authorizationEndpoint), ("token_endpoint", tokenEndpoint), ("jwks_uri", jwksURI),
            ("userinfo_endpoint", userinfoEndpoint), ("revocation_endpoint", revocationEndpoint),
            ("end_session_endpoint", endSessionEndpoint),
            ("pushed_authorization_request_endpoint", pushedAuthorizationRequestEndpoint),
            ("device_authorization_endpoint", deviceAuthorizationEndpoint),
        ]
        return endpoints.compactMap { name, url in url.map { (name, $0) } }
    }

    /// Whether the provider accepts DPoP proofs RegState signs: `dpop_signing_alg_values_supported` lists `ES256`.
    package var offersDPoP: Bool { dpopSigningAlgValuesSupported?.contains("ES256") ?? false }

    /// Whether the callback must carry an `iss` parameter equal to the issuer (RFC 9207 §2.4).
    package var requiresCallbackIssuer: Bool { authorizationResponseIssParameterSupported ?? false }

    /// The ID token algorithms accepted from this provider: RS256, PS256 and ES256 as listed, RS256 alone when
    /// discovery lists none (OIDC Discovery §3's default); never `none` or HMAC.
    /// - Throws: ``IDTokenError/unsignedTokensAdvertised`` when the list contains `none`.
    package func acceptedIDTokenAlgorithms() throws(IDTokenError) -> Set<SignatureAlgorithm> {
        guard let listed = idTokenSigningAlgValuesSupported else { return [.rs256] }
        if listed.contains("none") { throw .unsignedTokensAdvertised }
        let offered: Set<SignatureAlgorithm> = [.rs256, .ps256, .es256]
        return Set(listed.compactMap(SignatureAlgorithm.init(rawValue:))).intersection(offered)
    }
}
