import Foundation

extension RegStateService {
    /// A usable access token for the host's requests, renewed first when it has expired.
    ///
    /// Any number of concurrent callers share one renewal. Offline, the call throws a recoverable **E** while the
    /// session stays active with its data.
    ///
    /// - Throws: ``RegStateError`` (**E**) when renewal fails; ``AccessTokenError/noSession`` when no session is active.
    ///
    /// After a store that could not be read (**E** ``RenewalFailure/storage(_:)`` at launch), the call reads the store
    /// again first: a store that has come back (a device unlocked, a disk remounted) settles the session without the
    /// app calling ``start()`` again.
    public func validAccessToken() async throws -> String {
        await retryUnreadableStore()
        guard case .active = state, let current = await tokenSnapshot() else { throw AccessTokenError.noSession }
        if let token = current.usableAccessToken { return token }
        let failure = await renew(replacing: current.accessToken, because: .expired)
        if let renewed = await tokenSnapshot()?.usableAccessToken { return renewed }
        throw RegStateError.renewal(failure ?? .transient(.ssoUnspecifiedIssue))
    }

    /// Renews the session now, whatever the stored token's expiry, and returns the new state.
    ///
    /// After a store that could not be read at launch it reads the store again (the launch inspection, seed 002 steps
    /// 3–5) instead: a valid token is **B**, an expired one is renewed (**C**).
    @discardableResult
    public func renewSession() async -> RegState {
        if await retryUnreadableStore() { return state }
        await renew(replacing: nil, because: .host)
        return state
    }

    /// The documented retry after a recoverable storage failure at launch: inspect the store again. Returns whether
    /// it ran (the state was that failure).
    @discardableResult
    func retryUnreadableStore() async -> Bool {
        guard case .failed(.renewal(.storage)) = state else { return false }
        await start()
        return true
    }

    /// A server rejected `token`: renew once for everyone who saw it rejected and return the new token, or `nil` when
    /// renewal failed.
    ///
    /// The first rejection of a token is journaled as ``MachineEvent/renewalRequested(_:)`` (the one "token expired"
    /// notice, however many requests failed); later ones join the same renewal, or find it already renewed.
    public func tokenRejected(_ token: String) async -> String? {
        guard case .active(let session) = state, session.activation != .nonNative else { return nil }
        await renew(replacing: token, because: .backendUnauthorized)
        guard let current = await tokenSnapshot()?.usableAccessToken, current != token else { return nil }
        return current
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
        let before = storedKeys()
        _ = try? await apply(.clearStateRequested)
        let after = Set(storedKeys())
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
