import Foundation

/// Why a request to the registration backend failed, one case per thing the engine does differently.
///
/// Messages never contain a token.
public enum BackendError: Error, Sendable, Equatable {
    /// No response arrived.
    case transport(TransportError)
    /// `401`: the security token is missing, expired or unknown; renew it and retry once.
    case unauthorized
    /// `403 FORCED_LOGOUT`: the backend ended this installation's session; log out locally.
    case forcedLogout
    /// `403 TOO_MANY_REGISTERED_DEVICES`: the user has reached the device limit.
    case tooManyRegisteredDevices
    /// `403 MAX_NUMBER_SECURITY_TOKEN`: this installation holds as many security tokens as allowed.
    case maxSecurityTokens
    /// `401 invalid_id_token`: the backend did not accept the ID token offered for a security token.
    case invalidIDToken
    /// Any other status, with the body's `error` code when it had one.
    case unexpectedStatus(Int, code: String?)
    /// `429`, or `503` with a `Retry-After`: the backend asked the client to wait `retryAfter` seconds (both forms of
    /// RFC 9110 §10.2.3, capped at an hour). Transient: the security token is not exchanged again before then.
    case rateLimited(retryAfter: Int)
    /// A success response that could not be read; the reason names what was wrong.
    case malformedResponse(String)
    /// The backend URL is not `https` (nor `http` to a loopback host); nothing was sent.
    case insecureURL
    /// An ID that goes into the URL (a device ID) cannot be one path segment (empty, `.` or `..`); nothing was sent.
    case invalidPathSegment(PathSegmentError)

    /// Whether trying again later may succeed: transport failures, 5xx and 429, and unreadable success responses.
    public var isTransient: Bool {
        switch self {
        case .transport(let error): error.isTransient
        case .unexpectedStatus(let status, _): status >= 500 || status == 429
        case .malformedResponse, .rateLimited: true
        default: false
        }
    }

    /// The wait the backend asked for with `Retry-After`, in seconds, when it did.
    var retryAfter: TimeInterval? {
        if case .rateLimited(let seconds) = self { return TimeInterval(seconds) }
        return nil
    }
}

extension BackendError {
    /// A stable, machine-readable code for the reason (for `--json` output and logs); never a token.
    public var reasonCode: String {
        switch self {
        case .transport: "transport"
        case .unauthorized: "unauthorized"
        case .forcedLogout: "forced_logout"
        case .tooManyRegisteredDevices: "too_many_registered_devices"
        case .maxSecurityTokens: "max_security_tokens"
        case .invalidIDToken: "invalid_id_token"
        case .unexpectedStatus(_, let code?) where code == "devices_unsupported" || code == "unknown_device": code
        case .unexpectedStatus: "unexpected_status"
        case .rateLimited: "rate_limited"
        case .malformedResponse: "malformed_response"
        case .insecureURL: "insecure_url"
        case .invalidPathSegment: "invalid_id"
        }
    }
}

extension BackendError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .transport(let error): error.errorDescription
        case .unauthorized: "The session with the server has expired."
        case .forcedLogout: "The server ended this device's session."
        case .tooManyRegisteredDevices: "Too many devices are registered to this account."
        case .maxSecurityTokens: "This device has too many open sessions with the server."
        case .invalidIDToken: "The server did not accept the identity token."
        case .unexpectedStatus(let status, let code):
            "The server answered HTTP \(status)\(code.map { " (\($0.prefix(64)))" } ?? "")."
        case .rateLimited(let seconds): "The server asked to wait \(seconds) s."
        case .malformedResponse(let reason): "The server sent an unreadable answer (\(reason))."
        case .insecureURL: "The server must be reached over HTTPS."
        case .invalidPathSegment(let error): error.errorDescription
        }
    }
}
