import Foundation
import RegState

/// What a test or a simulation asks the provider and the backend: counters, inboxes, users, installations, and
/// after a run, whether it would still honour a session.
extension Simulator {
    /// Token-endpoint requests with `grant_type=refresh_token` received, whatever their outcome.
    public var refreshGrantCount: Int { world.counters.refreshGrants }
    /// How many times the key set was asked for (a renewal fetches it before its grant, so an outage's attempts are
    /// key-set requests that never reach the token endpoint).
    public var keySetRequestCount: Int { world.counters.keySetRequests ?? 0 }
    /// Token-endpoint requests received, whatever their grant and outcome.
    public var tokenRequestCount: Int { world.counters.tokenRequests }
    /// Revocation requests that named a token the provider had issued (RFC 7009 answers 200 either way).
    public var revokedTokenCount: Int { world.counters.revokedTokens }

    /// The one-time codes sent to `email`, oldest first.
    public func inbox(for email: String) -> [String] { world.inbox[email.lowercased()] ?? [] }

    /// The last one-time code sent to `email`, if any.
    public func latestCode(for email: String) -> String? { inbox(for: email).last }

    /// The user with address `email`, if it is scripted or has signed in.
    public func user(email: String) -> SimulatorUser? { world.users[email.lowercased()] }

    /// The installations registered with the backend for `email`'s user.
    public func registeredInstallationCount(for email: String) -> Int {
        guard let subject = user(email: email)?.subject else { return 0 }
        return world.installations.values.filter { $0.subject == subject }.count
    }

    /// The live (unexpired, not retired) security tokens the backend holds for `email`'s installations.
    public func liveSecurityTokenCount(for email: String) -> Int {
        guard let subject = user(email: email)?.subject else { return 0 }
        let now = clock.now()
        return world.securityTokens.values.filter { $0.subject == subject && $0.expiresAt > now }.count
    }

    /// Whether the backend holds a confirmed registration profile for `email`'s user.
    public func isRegistered(email: String) -> Bool {
        guard let subject = user(email: email)?.subject else { return false }
        return world.profiles[subject] != nil
    }

    /// The JWK `kid` of the world's signing key.
    public var signingKeyID: String { world.keyID }

    /// Sets the request counters and the request log back to zero.
    public func resetCounters() {
        world.counters = Counters()
        requestLog.removeAll()
    }

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
