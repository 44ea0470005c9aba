import Foundation

/// Where the provider sends the browser back at the end of a sign-in, as the system's authentication session
/// watches for it: a custom URL scheme, or an `https` host and path (an associated domain the app owns).
///
/// The callback is read from the redirect URI the app registered with its provider
/// (``init(redirectURI:)``), so the two cannot disagree; ``matches(_:)`` says whether a URL the browser reached is
/// this callback, which is how a session tells the end of a sign-in from a page on the way.
public enum WebAuthenticationCallback: Sendable, Equatable {
    /// A custom URL scheme (RFC 8252 §7.1), such as `com.example.app` for `com.example.app:/callback`. Every
    /// supported OS version can watch for one.
    case customScheme(String)
    /// An `https` redirect to `host` and `path` (RFC 8252 §7.2): the app must own the domain (an associated domain with
    /// the `webcredentials` service). The system's session watches for it from iOS 17.4 and macOS 14.4 on.
    case https(host: String, path: String)

    /// The callback of `redirectURI`, the redirect URI registered with the provider.
    ///
    /// - Throws: ``WebAuthenticationError/unsupportedRedirectURI(_:)`` for an `http` URI (a loopback redirect belongs
    ///   to RegStateLoopback, not to a browser sheet), an `https` URI without a host, or a URI without a scheme.
    public init(redirectURI: URL) throws(WebAuthenticationError) {
        guard let scheme = redirectURI.scheme?.lowercased(), !scheme.isEmpty else {
            throw .unsupportedRedirectURI(redirectURI)
        }
        switch scheme {
        case "https":
            guard let host = redirectURI.host?.lowercased(), !host.isEmpty else { throw .unsupportedRedirectURI(redirectURI) }
            self = .https(host: host, path: redirectURI.path.isEmpty ? "/" : redirectURI.path)
        case "http":
            throw .unsupportedRedirectURI(redirectURI)
        default:
            self = .customScheme(scheme)
        }
    }

    /// Whether the browser reaching `url` ends the sign-in: the same custom scheme, or `https` with the same host
    /// (case-insensitive) and exactly the same path.
    public func matches(_ url: URL) -> Bool {
        switch self {
        case .customScheme(let scheme):
            return url.scheme?.lowercased() == scheme
        case .https(let host, let path):
            return url.scheme?.lowercased() == "https" && url.host?.lowercased() == host
                && (url.path.isEmpty ? "/" : url.path) == path
        }
    }
}
