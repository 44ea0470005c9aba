import Foundation

/// The one rule for which transient issue a failure is, used by the renewal, the security token, the host's ID token,
/// clear-state and logout alike: no answer, or an answer from something that is not the provider (a captive portal's
/// page), is ``TransientIssue/noInternet``; anything else transient is ``TransientIssue/ssoUnspecifiedIssue``.
extension TransientIssue {
    /// The transient issue of a provider failure.
    init(_ error: OIDCError) {
        self = switch error {
        case .transport, .notTheProvider: .noInternet
        default: .ssoUnspecifiedIssue
        }
    }

    /// The transient issue of a backend failure: the backend has no captive-portal check, so only no answer is
    /// ``TransientIssue/noInternet``.
    init(_ error: BackendError) {
        self = if case .transport = error { .noInternet } else { .ssoUnspecifiedIssue }
    }
}
