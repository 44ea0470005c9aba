import Foundation

extension RegStateService {
    /// A usable access token for the host's requests, renewed first when it has expired.
    ///
    /// Any number of concurrent callers share one renewal. Offline, the call throws a recoverable **E** while the
    /// session stays active with its data.
    ///
    /// - Throws: ``RegStateError`` (**E**) when renewal fails; ``AccessTokenError/noSession`` when no session is active.
    public func validAccessToken() async throws -> String {
        guard case .active = state, let current = await tokens.accessToken() else { throw AccessTokenError.noSession }
        if await tokens.isUsable(current.expiresAt) { return current.token }
        let failure = await renew(replacing: current.token, because: .expired)
        if let renewed = await tokens.accessToken(), await tokens.isUsable(renewed.expiresAt) { return renewed.token }
        throw RegStateError.renewal(failure ?? .transient(.ssoUnspecifiedIssue))
    }

    /// Renews the session now, whatever the stored token's expiry, and returns the new state.
    @discardableResult
    public func renewSession() async -> RegState {
        await renew(replacing: nil, because: .host)
        return state
    }

    /// The one way a renewal is asked for: the first caller for a stale token journals
    /// ``MachineEvent/renewalRequested(_:)``, whose effect runs (or joins) the single flight; later callers for the
    /// same token join the flight, or find its result stored. `nil` forces a renewal.
    ///
    /// - Returns: why the renewal failed, when this caller learned it; `nil` when it succeeded or nothing was done.
    @discardableResult
    func renew(replacing staleToken: String?, because trigger: RenewalTrigger) async -> RenewalFailure? {
        if let staleToken, renewalRequestedFor == staleToken {
            let (result, _) = await renewCoalesced(replacing: staleToken)
            if case .failure(let failure) = result.outcome { return failure }
            return nil
        }
        renewalRequestedFor = staleToken
        staleTokenForRenewal = staleToken
        let applied: [MachineEvent]
        do {
            applied = try await apply(.renewalRequested(trigger))
        } catch {
            staleTokenForRenewal = nil  // no session to renew: the effect never ran
            return nil
        }
        for case .renewalFailed(let failure, _) in applied { return failure }
        return nil
    }

    /// Logs the user out: revokes the refresh token at the provider, clears local credentials, back to **D**.
    ///
    /// Only while online (seed 000): when the provider cannot be reached nothing changes and the call throws.
    ///
    /// - Returns: what happened at the provider: revoked, no revocation offered, or revocation refused.
    /// - Throws: ``LogoutError/offline(_:)``; ``TransitionRejection`` when there is no session to end.
    @discardableResult
    public func logout() async throws -> LogoutResult {
        lastLogout = nil
        let applied = try await apply(.logoutRequested)
        for case .logoutRefused(let issue) in applied { throw LogoutError.offline(issue) }
        return lastLogout ?? .nothingToRevoke
    }

    /// The backend ended the session (`403 FORCED_LOGOUT`): local data is cleared and the user must register again.
    ///
    /// - Throws: ``TransitionRejection`` when no session is active.
    public func handleForcedLogout() async throws {
        try await apply(.forcedLogout)
    }

    /// Wipes all local state: credentials, profile, installation id and journal (seed 002's debug command).
    ///
    /// - Returns: the secure-store keys that were removed.
    @discardableResult
    public func clearState() async -> [String] {
        let before = (try? dependencies.store.keys()) ?? []
        _ = try? await apply(.clearStateRequested)
        let after = Set((try? dependencies.store.keys()) ?? [])
        return before.filter { !after.contains($0) }
    }
}

/// Why no access token can be handed out.
public enum AccessTokenError: Error, Sendable, Equatable {
    /// No session is active.
    case noSession
}

/// Why logout did not happen.
public enum LogoutError: Error, Sendable, Equatable {
    /// The provider could not be reached: logout happens only while online, so nothing changed.
    case offline(TransientIssue)
}

extension AccessTokenError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? { "No session is active." }
}

extension LogoutError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .offline(.noInternet): "Logout needs a connection: you are offline, nothing was changed."
        case .offline(.ssoUnspecifiedIssue): "Logout needs the sign-in service, which is not answering: nothing was changed."
        }
    }
}
