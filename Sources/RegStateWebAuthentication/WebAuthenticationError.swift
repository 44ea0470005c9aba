import Foundation

/// Why a sign-in in the system's authentication session produced no redirect.
///
/// ``cancelled`` is the user's choice, not a failure: an app shows its registration options again (letter **D**)
/// without an error message. Every case is `Equatable`, so an app can switch over it.
public enum WebAuthenticationError: Error, Sendable, Equatable {
    /// The user closed the sheet, or the calling task was cancelled (the sheet is then closed too).
    case cancelled
    /// The session could not be shown: no window to present it from, or one that cannot present it.
    case presentationUnavailable
    /// The session would not start (another one is showing, or the URL cannot be opened in it).
    case notStarted
    /// The redirect URI cannot be watched for by a browser session (an `http` loopback URI, or no scheme or host).
    case unsupportedRedirectURI(URL)
    /// An `https` callback on an OS before iOS 17.4 or macOS 14.4, whose session can only watch for a custom scheme.
    case httpsCallbackUnavailable
    /// The session ended on a URL that is not the callback; nothing is handed to the engine.
    case unexpectedCallback
    /// Any other failure the system reported, with its description (it never holds a token: the session failed
    /// before there was one).
    case failed(String)
}

extension WebAuthenticationError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .cancelled: "The sign-in was cancelled."
        case .presentationUnavailable: "The sign-in page could not be shown: there is no window to show it from."
        case .notStarted: "The sign-in page could not be opened."
        case .unsupportedRedirectURI(let uri):
            "The redirect URI \(uri.absoluteString) cannot end a browser sign-in: use a custom scheme or an https URI."
        case .httpsCallbackUnavailable: "An https redirect needs iOS 17.4 or macOS 14.4 or later: use a custom scheme."
        case .unexpectedCallback: "The sign-in ended somewhere else than the app's redirect URI."
        case .failed(let reason): "The sign-in failed: \(reason)"
        }
    }
}
