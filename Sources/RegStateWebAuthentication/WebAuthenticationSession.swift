#if (canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))) || REGSTATE_APPLE_TYPECHECK
#if canImport(AuthenticationServices)
import AuthenticationServices
#endif
import Foundation

/// Shows a sign-in URL in the system's authentication session (`ASWebAuthenticationSession`) and returns the URL the
/// provider redirected the browser to: what `RegStateService.completeSocialRegistration(callback:)` takes.
///
/// The system's sheet shows the provider's own page and address, shares cookies with Safari (unless
/// ``prefersEphemeralSession``) and hands back only the redirect, as RFC 8252 asks of native apps. One value runs
/// one sign-in at a time; ``authenticate(at:)`` may be called again afterwards.
///
/// ```swift
/// let callback = try WebAuthenticationCallback(redirectURI: redirectURI)
/// let sheet = WebAuthenticationSession(callback: callback) { window }
/// let url = try await service.beginSocialRegistration()
/// let profile = try await service.completeSocialRegistration(callback: try await sheet.authenticate(at: url))
/// ```
@MainActor
public final class WebAuthenticationSession {
    /// What the session watches for to end the sign-in.
    public let callback: WebAuthenticationCallback
    /// Whether the sheet keeps no cookies and shares none with Safari: every sign-in asks for the password again,
    /// and the system shows no "wants to use … to sign in" prompt.
    public let prefersEphemeralSession: Bool
    private let anchor: PresentationAnchorProvider

    /// A session for `callback`.
    ///
    /// - Parameters:
    ///   - callback: The app's redirect URI as the session watches for it
    ///     (``WebAuthenticationCallback/init(redirectURI:)``).
    ///   - prefersEphemeralSession: `true` for a sign-in that shares no cookies with Safari (default `false`).
    ///   - presentationAnchor: The window the sheet is shown from, asked when the sheet opens.
    public init(callback: WebAuthenticationCallback, prefersEphemeralSession: Bool = false,
                presentationAnchor: @escaping @MainActor () -> ASPresentationAnchor) {
        self.callback = callback
        self.prefersEphemeralSession = prefersEphemeralSession
        self.anchor = PresentationAnchorProvider(presentationAnchor)
    }

    /// Opens `url` (an authorization URL from `RegStateService.beginSocialRegistration()`) and returns the redirect
    /// once the provider sends the browser to the callback. Cancelling the calling task closes the sheet.
    ///
    /// - Throws: ``WebAuthenticationError``: ``WebAuthenticationError/cancelled`` when the user closes the sheet or
    ///   the task is cancelled, ``WebAuthenticationError/httpsCallbackUnavailable`` for an `https` callback before
    ///   iOS 17.4 or macOS 14.4.
    public func authenticate(at url: URL) async throws(WebAuthenticationError) -> URL {
        let completion = SessionCompletion()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<URL, WebAuthenticationError>, Never>) in
                if completion.begin(continuation) { start(url, completion) }
            }
        } onCancel: {
            completion.cancel()
        }
        return try outcome.get()
    }

    private func start(_ url: URL, _ completion: SessionCompletion) {
        let handler: (URL?, (any Error)?) -> Void = { [callback] redirect, error in
            completion.finish(Self.outcome(redirect: redirect, error: error, callback: callback))
        }
        let session: ASWebAuthenticationSession
        switch callback {
        case .customScheme(let scheme):
            session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: handler)
        case .https(let host, let path):
            guard #available(iOS 17.4, macOS 14.4, *) else { return completion.finish(.failure(.httpsCallbackUnavailable)) }
            session = ASWebAuthenticationSession(url: url, callback: .https(host: host, path: path),
                                                 completionHandler: handler)
        }
        session.presentationContextProvider = anchor
        session.prefersEphemeralWebBrowserSession = prefersEphemeralSession
        guard session.start() else { return completion.finish(.failure(.notStarted)) }
        completion.whenCancelled { session.cancel() }
    }

    /// The result of a finished session: the redirect when it is the callback, else the typed reason.
    nonisolated static func outcome(redirect: URL?, error: (any Error)?,
                                    callback: WebAuthenticationCallback) -> Result<URL, WebAuthenticationError> {
        if let error { return .failure(WebAuthenticationError(sessionError: error)) }
        guard let redirect, callback.matches(redirect) else { return .failure(.unexpectedCallback) }
        return .success(redirect)
    }
}
#endif
