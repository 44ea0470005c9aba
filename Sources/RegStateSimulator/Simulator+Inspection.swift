import Foundation
import RegState

/// What a simulation asks the provider after a run: would it still honour a session?
extension Simulator {
    /// Whether a refresh grant presenting `refreshToken` would succeed now: the provider issued it, its family is
    /// not revoked, it has not expired, and it has not been rotated away (or its reuse falls within the reuse grace).
    /// Knobs that refuse every grant (``SimulatorConfiguration/refusesRefresh``) count as not honouring it.
    public func honours(refreshToken: String) -> Bool {
        guard !configuration.refusesRefresh,
              let record = world.refreshTokens[mint.storageKey(refreshToken)],
              let family = world.families[record.familyID], !family.revoked
        else { return false }
        let now = clock.now()
        if let expiresAt = record.expiresAt, expiresAt <= now { return false }
        if record.used {
            guard configuration.refreshReuseGrace > 0, let usedAt = record.usedAt else { return false }
            return now.timeIntervalSince(usedAt) < configuration.refreshReuseGrace
        }
        return true
    }
}
