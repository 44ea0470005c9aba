#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
import AuthenticationServices
import Foundation
import RegState
import RegStateWebAuthentication

extension SessionModel {
    /// Social registration in an iOS or macOS app: the provider's page in the system's authentication sheet
    /// (RegStateWebAuthentication's `WebAuthenticationSession`), its redirect handed to the engine (**G** next).
    /// The user closing the sheet is not an error: the model stays on the registration options (**D**).
    ///
    /// - Parameters:
    ///   - redirectURI: The redirect URI registered with the provider (`OIDCConfiguration.redirectURI`): a custom
    ///     scheme, or an `https` URI on an associated domain (iOS 17.4, macOS 14.4).
    ///   - ephemeral: `true` for a sheet that shares no cookies with Safari.
    ///   - window: The window the sheet is shown from (a SwiftUI view passes its scene's key window).
    public func signInWithSystemBrowser(redirectURI: URL, ephemeral: Bool = false,
                                        from window: @escaping @MainActor () -> ASPresentationAnchor) async throws {
        let sheet = WebAuthenticationSession(callback: try WebAuthenticationCallback(redirectURI: redirectURI),
                                             prefersEphemeralSession: ephemeral, presentationAnchor: window)
        do {
            try await signInWithSocial { url in try await sheet.authenticate(at: url) }
        } catch WebAuthenticationError.cancelled {
            return
        }
    }
}
#endif
