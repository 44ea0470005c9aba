#if (canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))) || REGSTATE_APPLE_TYPECHECK
#if canImport(AuthenticationServices)
import AuthenticationServices
#endif
import Foundation

/// Tells the system's authentication session which window to show its sheet from, by asking the app's closure.
final class PresentationAnchorProvider: NSObject, ASWebAuthenticationPresentationContextProviding {
    private let anchor: @MainActor () -> ASPresentationAnchor

    init(_ anchor: @escaping @MainActor () -> ASPresentationAnchor) {
        self.anchor = anchor
    }

    /// The system asks on the main thread (it presents the sheet there).
    nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        let anchor = self.anchor
        return MainActor.assumeIsolated { anchor() }
    }
}
#endif
