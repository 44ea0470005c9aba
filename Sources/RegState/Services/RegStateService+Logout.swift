import Foundation

extension RegStateService {
    /// Logs the user out: revokes the refresh token at the provider, clears local credentials, back to **D**.
    ///
    /// Only while online: when the provider cannot be reached nothing changes and the call throws.
    ///
    /// - Returns: what happened at the provider (revoked, no revocation offered, or revocation refused) and the
    ///   request that ends the browser session there, if any.
    /// - Throws: ``LogoutError/offline(_:)``; ``LogoutError/credentialsRemain(_:)`` when the session ended but the
    ///   store did not let its credentials be removed; ``TransitionRejection`` when there is no session to end.
    @discardableResult
    public func logout() async throws -> LoggedOut {
        let applied = try await apply(.logoutRequested)
        for case .logoutRefused(let issue) in applied.events { throw LogoutError.offline(issue) }
        for result in applied.results {
            switch result {
            case .logoutRefused(let issue): throw LogoutError.offline(issue)
            case .credentialsRemain(let reason): throw LogoutError.credentialsRemain(reason)
            case .loggedOut(let loggedOut): return loggedOut
            default: continue
            }
        }
        return LoggedOut(result: .nothingToRevoke, endSession: nil)
    }
}
