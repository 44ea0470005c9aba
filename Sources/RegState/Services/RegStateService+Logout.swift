import Foundation

extension RegStateService {
    /// Logs the user out: revokes the refresh token at the provider, clears local credentials, back to **D**.
    ///
    /// Only while online: when the provider cannot be reached nothing changes and the call throws. Only with the
    /// session's record read: on a device that refuses the read (locked) nothing changes either.
    ///
    /// - Returns: what happened at the provider (revoked, no revocation offered, or revocation refused) and the
    ///   request that ends the browser session there, if any.
    /// - Throws: ``RegStateServiceError/offline(_:)`` (nothing changed); ``RegStateServiceError/storage(_:)`` when
    ///   the stored credentials could not be read, a locked device (nothing changed; try again once it is unlocked);
    ///   ``RegStateServiceError/credentialsRemain(_:)`` when the session ended but the store did not let its
    ///   credentials be removed; ``RegStateServiceError/rejected(_:)`` when there is no session to end.
    @discardableResult
    public func logout() async throws(RegStateServiceError) -> LoggedOut {
        let applied = try await apply(.logoutRequested)
        for case .logoutStoreUnreadable(let error) in applied.results { throw .storage(error) }
        for case .logoutRefused(let issue) in applied.events { throw .offline(issue) }
        for result in applied.results {
            switch result {
            case .logoutRefused(let issue): throw .offline(issue)
            case .credentialsRemain(let error): throw .credentialsRemain(error)
            case .loggedOut(let loggedOut): return loggedOut
            default: continue
            }
        }
        return LoggedOut(result: .nothingToRevoke, endSession: nil)
    }
}
