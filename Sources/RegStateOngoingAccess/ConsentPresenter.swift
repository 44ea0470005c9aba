import Foundation
import RegState

/// Shows the provider's consent screen to the user and returns where the provider redirected afterwards.
///
/// On a phone this opens the provider's app or a browser and waits for the redirect; the simulator's scripted
/// consent accepts or refuses. Throw when the screen cannot be shown or the user abandons it.
public protocol ConsentPresenter: Sendable {
    /// Presents `url` and returns the redirect the provider sent back to `redirectURI` (with `code` and `state`, or
    /// an `error`).
    func presentConsent(at url: URL, redirectURI: URL) async throws -> URL
}
