import Foundation

/// Whether sign-in with an emailed one-time code can be offered, as this app's configuration and the provider's
/// discovery document say: what an app asks before it shows the email option, so that it offers what the provider
/// supports instead of assuming it.
public enum PasswordlessAvailability: Sendable, Equatable {
    /// Discovery lists the one-time-code grant in `grant_types_supported`.
    case offered
    /// Discovery lists `grant_types_supported` without the one-time-code grant: an attempt would fail with
    /// ``RegistrationFailure/grantNotOffered(_:)``.
    case notOffered
    /// This app's configuration has no passwordless start URL (``OIDCConfiguration/passwordlessStartURL`` is `nil`).
    case notConfigured
    /// Discovery lists no grant types, or cannot be read now: only an attempt tells (the start endpoint decides).
    case unknown

    /// Whether an app should show the email option: everything except ``notOffered`` and ``notConfigured``.
    public var mayOffer: Bool {
        self == .offered || self == .unknown
    }

    /// Why the email option is not shown, as a sentence for people; `nil` when it may be offered.
    public var reason: String? {
        switch self {
        case .offered, .unknown: nil
        case .notOffered:
            "this provider's discovery does not list the one-time-code grant, so it cannot send sign-in codes by email."
        case .notConfigured: "this app is configured without a passwordless start URL."
        }
    }
}
