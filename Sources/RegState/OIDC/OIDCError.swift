import Foundation

/// Why an exchange with the OpenID provider failed, one case per thing a caller would act on differently.
///
/// Callers branch on ``isTransient`` (try again later, keep the session) and ``isRefusal`` (the provider said no:
/// clear the tokens). Messages never contain a token, a code or a key.
public enum OIDCError: Error, Sendable, Equatable {
    /// No response arrived (offline, timeout, refused connection).
    case transport(TransportError)
    /// The provider answered with a 5xx status, 429 (rate limiting) or 408 (request timeout).
    case server(status: Int)
    /// The answer did not come from the provider: an HTML page (a captive portal, a proxy's login or error page)
    /// where an OpenID provider answers JSON. Transient: the device is not really on the internet yet.
    case notTheProvider(status: Int)
    /// The token endpoint answered a refresh with the same 4xx twice, a short backoff apart, without a reason RegState
    /// can act on (``isRefusal``): no readable OAuth error body (`error` is `nil`; Glewlwyd answers a retired refresh
    /// token with HTTP 400 and an empty body) or an error code outside RFC 6749 §5.2.
    case unexplainedRefusal(status: Int, error: String?)
    /// An OAuth error response (RFC 6749 §5.2): `error`, `error_description` and the HTTP status.
    case oauth(error: String, description: String?, status: Int)
    /// The provider's response could not be understood; the reason names what was wrong, never a value.
    case malformedResponse(String)
    /// A 4xx status without an OAuth error body (for example 404 from a wrong endpoint): a configuration problem,
    /// not worth retrying.
    case unexpectedStatus(Int)
    /// The discovery document names another issuer than the configured one (OIDC Discovery §4.3).
    case issuerMismatch(expected: String, found: String)
    /// The provider does not offer what was asked for (for example no `revocation_endpoint`).
    case unsupported(String)
    /// The ID token failed validation (OIDC Core §3.1.3.7).
    case invalidIDToken(IDTokenError)
    /// A URL the client would use — the issuer, or an endpoint its discovery document names — is not `https` and
    /// not loopback; nothing was sent to it. The reason names which URL (never a token).
    case insecureURL(String)
    /// The provider asked the client to wait: HTTP 429, or 503 with a `Retry-After`; `retryAfter` is that
    /// `Retry-After` in seconds (both forms of RFC 9110 §10.2.3, capped at an hour), when sent. Transient: a renewal
    /// is not tried again before it has passed.
    case rateLimited(retryAfter: Int?)
    /// The provider does not offer `grant`: its discovery does not list it, or its endpoint is not there (and none is
    /// configured).
    case grantNotOffered(GrantKind)
    /// A random-number or hashing failure while building a request.
    case crypto(CryptoError)
    /// The pushed authorization request endpoint (RFC 9126 §2.3) refused the request: `error` is the provider's OAuth
    /// error code (`invalid_request`, `invalid_client`, `unauthorized_client`, `invalid_dpop_proof`, …), `nil` when
    /// it answered a 4xx without a readable error body (Glewlwyd's bare `403`). Nothing was opened in the browser.
    case pushedAuthorizationRefused(error: String?, description: String?, status: Int)
    /// Pushed authorization requests are required (by the configuration or by the provider) and cannot be used; the
    /// reason says which. Nothing was sent: no plain authorization URL is made in their place.
    case pushedAuthorizationUnavailable(String)
    /// A DPoP step failed (RFC 9449): no key, a refused nonce, DPoP required but not offered, a `Bearer` answer when
    /// DPoP was required.
    case dpop(DPoPError)

    /// The RFC 6749 §5.2 error codes: the provider's considered "no" to a token request.
    package static let refusalCodes: Set<String> = [
        "invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type",
        "invalid_scope",
    ]

    /// OAuth error codes that say "not now" rather than "no" (RFC 6749 §4.1.2.1, RFC 8628 §3.5); the DPoP ones too
    /// (RFC 9449 §7, §8): a refused proof or nonce says nothing about the refresh token.
    package static let transientCodes: Set<String> = [
        "temporarily_unavailable", "server_error", "slow_down", "use_dpop_nonce", "invalid_dpop_proof",
    ]

    /// Whether trying again later may succeed: the transient half of the rule ``isRefusal`` states.
    public var isTransient: Bool {
        switch self {
        case .transport(let error): error.isTransient
        case .server, .notTheProvider, .malformedResponse, .rateLimited: true
        case .oauth(let error, _, _): Self.transientCodes.contains(error)
        default: false
        }
    }

    /// The wait the provider asked for with `Retry-After`, in seconds, when it did.
    var retryAfter: TimeInterval? {
        if case .rateLimited(let seconds?) = self { return TimeInterval(seconds) }
        return nil
    }

    /// Whether the provider refused the grant, so the refresh token (or code) is dead and the stored tokens are cleared
    /// (the token-endpoint answer rule, at registration and renewal alike: <doc:OfflineRules>).
    public var isRefusal: Bool {
        switch self {
        case .oauth(let error, _, _): Self.refusalCodes.contains(error)
        case .unexplainedRefusal: true
        default: false
        }
    }

    /// Whether this 4xx answer gets one more try before it counts (the third part of the rule in ``isRefusal``).
    var isUnexplained4xx: Bool {
        switch self {
        case .unexpectedStatus(let status): (400..<500).contains(status)
        case .oauth(let error, _, let status):
            (400..<500).contains(status) && !Self.refusalCodes.contains(error) && !Self.transientCodes.contains(error)
        default: false
        }
    }

    /// The HTTP status of an answer that carried one.
    var status: Int? {
        switch self {
        case .server(let status), .notTheProvider(let status), .unexpectedStatus(let status): status
        case .oauth(_, _, let status), .unexplainedRefusal(let status, _): status
        case .pushedAuthorizationRefused(_, _, let status): status
        default: nil
        }
    }

    /// The reason journaled for a refusal: the OAuth code, or what was unexplained about the answer.
    public var refusalReason: String {
        switch self {
        case .oauth(let error, _, _): error
        case .unexplainedRefusal(let status, let error?): "\(error) (HTTP \(status)), twice"
        case .unexplainedRefusal(let status, nil): "HTTP \(status) without an error body, twice"
        default: "refused"
        }
    }
}

extension OIDCError: LocalizedError {
    /// A sentence for people; never contains token or key material.
    public var errorDescription: String? {
        switch self {
        case .transport(let error): error.errorDescription
        case .server(let status): "The sign-in service failed (HTTP \(status)). Try again later."
        case .notTheProvider(let status):
            "Something other than the sign-in service answered (HTTP \(status), a web page): sign in to the network first."
        case .unexplainedRefusal:
            "The sign-in service refused the request without a reason (\(refusalReason))."
        case .oauth(let error, let description, let status):
            "The sign-in service refused the request (HTTP \(status), \(error)\(description.map { ": \($0)" } ?? ""))."
        case .malformedResponse(let reason): "The sign-in service sent an unreadable answer (\(reason))."
        case .unexpectedStatus(let status): "The sign-in service answered HTTP \(status)."
        case .issuerMismatch(let expected, let found):
            "The discovery document describes issuer \(found), not the configured \(expected)."
        case .unsupported(let what): "The sign-in service does not support this (\(what))."
        case .invalidIDToken(let error): "The identity token was rejected (\(error.localizedDescription))."
        case .insecureURL(let what): "The sign-in service must be reached over HTTPS (\(what))."
        case .rateLimited(let seconds): "Too many requests\(seconds.map { "; wait \($0) s" } ?? "")."
        case .grantNotOffered(let grant): "The sign-in service does not offer \(grant.offering)."
        case .pushedAuthorizationRefused(let error, let description, let status):
            "The sign-in service refused the pushed authorization request (HTTP \(status)"
                + (error.map { ", \($0)" } ?? ", no reason given") + (description.map { ": \($0)" } ?? "") + ")."
        case .pushedAuthorizationUnavailable(let reason):
            "Pushed authorization requests cannot be used with this sign-in service (\(reason))."
        case .crypto(let error): error.errorDescription
        case .dpop(let error): error.errorDescription
        }
    }
}
