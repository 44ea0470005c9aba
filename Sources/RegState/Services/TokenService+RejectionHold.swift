import Foundation

/// The rejection hold (``RejectionHold``) in the credentials record: written under the store's lock with the token it
/// holds, read by every process sharing the store and by every later launch.
extension TokenService {
    /// Whether a server's rejection of `token` is held now, in the stored record.
    func isHeld(_ token: String, carrier: TokenCarrier) -> Bool {
        snapshot()?.holdsRejection(of: token, carrier: carrier, at: clock.now()) ?? false
    }

    /// `token` was rejected right after a renewal: holds it, under the store's lock, so that no process renews it for
    /// a rejection before the hold has passed. Nothing when another token is stored now, or it is held already.
    func holdRejected(_ token: String, carrier: TokenCarrier) async throws {
        let lease = try await exclusiveAccess()
        defer { lease.release() }
        guard var credentials = try loadOwn() else { return }
        let now = clock.now()
        switch carrier {
        case .accessToken:
            guard credentials.accessToken == token, credentials.accessTokenHold?.holds(at: now) != true else { return }
            credentials.accessTokenHold = .after(credentials.accessTokenHold, at: now)
        case .securityToken:
            guard credentials.securityToken == token, credentials.securityTokenHold?.holds(at: now) != true else {
                return
            }
            credentials.securityTokenHold = .after(credentials.securityTokenHold, at: now)
        }
        try save(credentials)
    }
}
