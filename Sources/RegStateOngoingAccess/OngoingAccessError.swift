import Foundation
import RegState

/// Why ongoing access could not be authorized, restored or used. No case carries token material.
///
/// After any of these nothing was stored and the token the app holds is unchanged and still usable.
public enum OngoingAccessError: Error, Sendable, Equatable {
    /// The refresh token has expired (or the provider refused it) and `autoRecoverExpiredCredentials` is off: send
    /// the user through consent again (the ongoing-access design's `AuthErrorOAuthTokenExpired`).
    case oAuthTokenExpired
    /// The user refused consent.
    case consentRefused
    /// The consent redirect did not pass the checks (state, redirect URI, issuer) or carried another error.
    case consentFailed(RegistrationFailure)
    /// The consent screen could not be shown or was abandoned; the detail names the cause's type.
    case consentUnavailable(String)
    /// A signed answer failed verification.
    case answerRejected(JWSRejection)
    /// A signed answer does not answer this request (its `nonce` differs, or it is too old): a replay.
    case replayedAnswer
    /// The pre-authorization code had already expired when it arrived.
    case preAuthorizationExpired
    /// A verified answer lacks a member or has one of the wrong type; the detail names it.
    case malformedAnswer(String)
    /// The provider answered with an error status; carries the status and its OAuth error code.
    case providerRefused(status: Int, error: String)
    /// The provider asked the app to wait: HTTP 429, or 503 with a `Retry-After`; `retryAfter` is that wait in
    /// seconds (both forms of RFC 9110 §10.2.3, capped at an hour), when it sent one. Calls to the provider are held
    /// at least that long (``backingOff(until:)``).
    case rateLimited(retryAfter: Int?)
    /// A transient failure (in this process, another one sharing the store, or before a relaunch) holds calls to the
    /// provider until then: nothing was sent. The backoff is RegState's (1 s × 1.6 per failure up to 300 s, ±20 %,
    /// or the provider's `Retry-After`); the user's consent may cut it short once per backoff step.
    case backingOff(until: Date)
    /// The data call was refused (401) even with a fresh access token.
    case accessRejected
    /// No access is authorized in this service yet: call ``OngoingAccessService/authorizeOngoingAccess(scope:oAuthToken:)``.
    case notAuthorized
    /// Another authorization is running in this service.
    case authorizationInProgress
    /// No response arrived.
    case transport(TransportError)
    /// The token could not be stored or read.
    case store(StoreError)
    /// The app's key could not sign, or random bytes failed.
    case crypto(CryptoError)
    /// An ID that goes into the URL (a file ID, or the session key the provider issued) cannot be one path segment
    /// (empty, `.` or `..`); nothing was sent.
    case invalidPathSegment(PathSegmentError)

    /// Whether trying again later may succeed without the user doing anything.
    public var isTransient: Bool {
        switch self {
        case .transport(let error): error.isTransient
        case .providerRefused(let status, _): status >= 500
        case .rateLimited, .backingOff: true
        case .authorizationInProgress: true
        // The provider's key set could not be fetched (an outage): the answer, or the grant, waits for it.
        case .answerRejected(.keySetUnavailable): true
        default: false
        }
    }
}

extension OngoingAccessError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .oAuthTokenExpired: "The ongoing-access token has expired; the user must consent again."
        case .consentRefused: "The user refused to share their data."
        case .consentFailed(let error): "The consent answer was not accepted: \(error.localizedDescription)"
        case .consentUnavailable(let detail): "The consent screen could not be completed (\(detail))."
        case .answerRejected(let rejection): rejection.errorDescription
        case .replayedAnswer: "The provider's answer does not belong to this request (replayed)."
        case .preAuthorizationExpired: "The pre-authorization code had already expired."
        case .malformedAnswer(let detail): "The provider's answer is incomplete (\(detail))."
        case .providerRefused(let status, let error): "The provider refused the request (HTTP \(status), \(error.prefix(64)))."
        case .rateLimited(let seconds): "The provider asked to wait\(seconds.map { " \($0) s" } ?? "")."
        case .backingOff: "The provider was unavailable a moment ago; the next attempt waits for its backoff."
        case .accessRejected: "The provider refused the access token."
        case .notAuthorized: "Ongoing access has not been authorized yet."
        case .authorizationInProgress: "Another ongoing-access authorization is in progress."
        case .transport(let error): error.localizedDescription
        case .store(let error): error.localizedDescription
        case .crypto(let error): error.localizedDescription
        case .invalidPathSegment(let error): error.errorDescription
        }
    }
}
