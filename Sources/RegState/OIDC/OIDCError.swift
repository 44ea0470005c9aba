import Foundation

/// Why an exchange with the OpenID provider failed, one case per thing a caller would act on differently.
///
/// Callers branch on ``isTransient`` (try again later, keep the session) and ``isRefusal`` (the provider said no:
/// clear the tokens). Messages never contain a token, a code or a key.
public enum OIDCError: Error, Sendable, Equatable {
    /// No response arrived (offline, timeout, refused connection).
    case transport(TransportError)
    /// The provider answered with a 5xx status (or 429, rate limiting).
    case server(status: Int)
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
    /// The authorization response carried `error` (for example `access_denied`) and its description.
    case authorizationError(error: String, description: String?)
    /// The callback's `state` was missing or did not match the request's: a forged or stale response.
    case stateMismatch
    /// The callback's RFC 9207 `iss` was missing (while advertised) or named another issuer.
    case callbackIssuerMismatch
    /// The callback is not a redirect this client expects (wrong scheme, host, port or path, or no `code`).
    case malformedCallback(String)
    /// The ID token failed validation (OIDC Core §3.1.3.7).
    case invalidIDToken(IDTokenError)
    /// A URL the client would use — the issuer, or an endpoint its discovery document names — is not `https` and
    /// not loopback; nothing was sent to it. The reason names which URL (never a token).
    case insecureURL(String)
    /// The userinfo response is about another user: its `sub` is not the ID token's (OIDC Core §5.3.2). Nothing of it
    /// was used.
    case userInfoSubjectMismatch
    /// A bearer request was refused with 401: the access token is expired or revoked.
    case unauthorized
    /// The email address is not syntactically usable; nothing was sent.
    case invalidEmail
    /// The one-time code was wrong.
    case wrongCode
    /// The one-time code has expired.
    case codeExpired
    /// The one-time code was already used.
    case codeReused
    /// A random-number or hashing failure while building a request.
    case crypto(CryptoError)

    /// Whether trying again later may succeed: transport failures, 5xx, and malformed success responses (a proxy or
    /// a provider having a bad moment). OAuth errors are the provider's considered answer and are not transient.
    public var isTransient: Bool {
        switch self {
        case .transport(let error): error.isTransient
        case .server: true
        case .malformedResponse: true
        default: false
        }
    }

    /// Whether the provider explicitly refused the grant (`invalid_grant` or `unauthorized_client` from the token
    /// endpoint): the refresh token or code is dead and the stored tokens should be cleared.
    public var isRefusal: Bool {
        switch self {
        case .oauth(let error, _, _): error == "invalid_grant" || error == "unauthorized_client"
        default: false
        }
    }
}

extension OIDCError: LocalizedError {
    /// A sentence for people; never contains token or key material.
    public var errorDescription: String? {
        switch self {
        case .transport(let error): error.errorDescription
        case .server(let status): "The sign-in service failed (HTTP \(status)). Try again later."
        case .oauth(let error, let description, let status):
            "The sign-in service refused the request (HTTP \(status), \(error)\(description.map { ": \($0)" } ?? ""))."
        case .malformedResponse(let reason): "The sign-in service sent an unreadable answer (\(reason))."
        case .unexpectedStatus(let status): "The sign-in service answered HTTP \(status)."
        case .issuerMismatch(let expected, let found):
            "The discovery document describes issuer \(found), not the configured \(expected)."
        case .unsupported(let what): "The sign-in service does not support this (\(what))."
        case .authorizationError(let error, let description):
            "Sign-in was not completed (\(error)\(description.map { ": \($0)" } ?? ""))."
        case .stateMismatch: "The sign-in response does not match the pending request."
        case .callbackIssuerMismatch: "The sign-in response came from another issuer."
        case .malformedCallback(let reason): "The sign-in response could not be read (\(reason))."
        case .invalidIDToken(let error): "The identity token was rejected (\(error.localizedDescription))."
        case .insecureURL(let what): "The sign-in service must be reached over HTTPS (\(what))."
        case .userInfoSubjectMismatch: "The sign-in service sent the profile of another user."
        case .unauthorized: "The access token was refused; it has expired or was revoked."
        case .invalidEmail: "That email address cannot be used."
        case .wrongCode: "That code is not right."
        case .codeExpired: "That code has expired."
        case .codeReused: "That code was already used."
        case .crypto(let error): error.errorDescription
        }
    }
}
