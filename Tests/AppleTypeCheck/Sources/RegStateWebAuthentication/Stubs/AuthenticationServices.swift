#if REGSTATE_APPLE_TYPECHECK
import Foundation

// Hand-written stand-ins for exactly the AuthenticationServices symbols RegStateWebAuthentication uses, declared as
// Apple documents them (developer.apple.com/documentation/authenticationservices/aswebauthenticationsession), so
// that its Apple-only files type-check on Linux. Never run: every body traps. ASPresentationAnchor is UIWindow on
// iOS and NSWindow on macOS, both main-actor classes; here a main-actor NSObject subclass standing for them.

private func stub() -> Never { fatalError("Apple type-check stub: never run") }

/// Stands for UIWindow (iOS) and NSWindow (macOS): a main-actor class.
@MainActor
open class PlatformWindow: NSObject {}

/// The window a sheet is presented from.
public typealias ASPresentationAnchor = PlatformWindow

/// The error domain of `ASWebAuthenticationSession`.
public let ASWebAuthenticationSessionErrorDomain = "com.apple.AuthenticationServices.WebAuthenticationSession"

/// The errors of `ASWebAuthenticationSession`.
public struct ASWebAuthenticationSessionError {
    /// Its codes.
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        case presentationContextNotProvided = 2
        case presentationContextInvalid = 3
    }
}

/// Provides the window a session's sheet is shown from.
public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    /// The window for `session`.
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// A session that authenticates a user through a web service.
open class ASWebAuthenticationSession: NSObject {
    /// What the session calls when it ends.
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// Where the session watches for its end (iOS 17.4, macOS 14.4).
    @available(iOS 17.4, macOS 14.4, *)
    public final class Callback {
        /// A custom scheme.
        public static func customScheme(_ customScheme: String) -> Callback { stub() }
        /// An https host and path.
        public static func https(host: String, path: String) -> Callback { stub() }
    }

    /// A session watching for `callbackURLScheme`.
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) { stub() }

    /// A session watching for `callback`.
    @available(iOS 17.4, macOS 14.4, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) { stub() }

    /// Provides the window the sheet is shown from (held weakly).
    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    /// Whether the session shares no cookies or data with the browser.
    open var prefersEphemeralWebBrowserSession: Bool = false

    /// Starts the session; `false` when it could not.
    open func start() -> Bool { stub() }
    /// Cancels the session, which then calls its completion handler with `canceledLogin`.
    open func cancel() { stub() }
}
#endif
