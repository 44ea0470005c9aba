import Foundation

extension RegStateService {
    /// Renews the session now, whatever the stored token's expiry, and returns the new state; after a store that
    /// could not be read at launch it runs the launch inspection again instead (a valid token is **B**, an expired one
    /// is renewed: **C**).
    ///
    /// Call it for the user's "retry" and for the host's own "connectivity is back" signal: it cuts the backoff that
    /// holds renewals after a transient failure short, at most once per backoff step, so a user who taps "retry" ten
    /// times in a second costs the provider one grant (while the hold lasts the others answer the recoverable **E**
    /// at once, sending nothing). The backend security token's hold is cut short the same way: one exchange when no
    /// usable security token is stored.
    @discardableResult
    public func renewSession() async -> RegState {
        if await retryUnreadableStore() { return state }
        await renewAccessToken(replacing: nil, because: .host)
        await cutSecurityTokenHoldShort()
        return state
    }

    /// After a recoverable storage failure at launch, inspects the store again; returns whether it did.
    @discardableResult
    func retryUnreadableStore() async -> Bool {
        guard case .failed(.renewal(.storage)) = state else { return false }
        await start()
        return true
    }

    /// A server rejected `token`: renew once for everyone who saw it rejected and return the new token, or `nil` when
    /// renewal failed. Not public: apps get this through ``AuthorizedTransport``, ``RegStateURLProtocol`` or
    /// ``renewSession()``; the simulation reports rejections with it.
    package func tokenRejected(_ token: String) async -> String? {
        await renewAfterRejection(of: token)?.token
    }

    /// ``tokenRejected(_:)``'s renewal: the renewed credential, or the usable record found after it, or `nil` when
    /// renewal failed or left the rejected token in place. `seen` is the record the caller just read (its hold
    /// checked).
    func renewAfterRejection(of token: String, seen: TokenSnapshot? = nil) async -> AccessTokenAnswer? {
        guard case .active(let session) = state, session.activation != .nonNative, !session.isHostDriven else { return nil }
        var seen = seen
        if seen == nil {
            // A store that cannot be read now (a locked device): the hold cannot be checked, so nothing is renewed.
            do {
                seen = try await runner.tokens.readSnapshot()
            } catch {
                return nil
            }
        }
        // Renewed for a rejection, by this process or another, this launch or an earlier one: no new grant before
        // the hold stored with it has passed.
        if await runner.tokens.heldUntil(token, carrier: .accessToken, in: seen?.record) != nil { return nil }
        flights.noteRejection(of: token)
        if case .success(let credential?) = await renewAccessToken(replacing: token, because: .backendUnauthorized,
                                                                   seen: seen),
           credential.token != token {
            return .renewed(credential)
        }
        guard let current = await runner.tokens.snapshot(), current.isUsable, current.accessToken != token else {
            return nil
        }
        return .stored(current)
    }

    /// The backend ended the session (`403 FORCED_LOGOUT`): local data is cleared and the user must register again.
    ///
    /// - Throws: ``RegStateServiceError/rejected(_:)`` when no session is active;
    ///   ``RegStateServiceError/credentialsRemain(_:)`` when the session ended (**E** `forcedLogout`) but the store
    ///   did not let its credentials be removed (``clearState()`` removes them).
    public func handleForcedLogout() async throws(RegStateServiceError) {
        failRenewal(.securityToken, .backend(.forcedLogout))
        let applied = try await apply(.forcedLogout)
        for case .credentialsRemain(let error) in applied.results { throw .credentialsRemain(error) }
    }

    /// Wipes all local state: every record RegState writes (credentials, profile, installation id, pending login, DPoP
    /// keys, the ongoing-access record) and the journal. First, when a backend is configured and a security token is
    /// stored, asks the backend to forget this installation (freeing its device slot); local state is cleared
    /// whatever it answers. Nothing is revoked at the provider (``logout()`` does that).
    ///
    /// The records are removed under the store's lock (never beside another process's renewal, whose rotated tokens
    /// would bring the session back): when the lock cannot be had or a removal fails, they stay, and the result says
    /// why (``ClearStateResult/credentialsRemain``).
    ///
    /// - Returns: the secure-store keys that were removed, what happened at the backend, and why records remain.
    @discardableResult
    public func clearState() async -> ClearStateResult {
        let before = storedKeys()
        let applied = await feed(.clearStateRequested)
        let after = Set(storedKeys())
        var installation = InstallationDeregistration.noBackend
        var remain: StoreError?
        for case .cleared(let deregistration, let reason) in applied?.results ?? [] { (installation, remain) = (deregistration, reason) }
        return ClearStateResult(removedKeys: before.filter { !after.contains($0) }, installation: installation,
                                credentialsRemain: remain)
    }

    /// The keys in the secure store now.
    private func storedKeys() -> [String] { (try? runner.dependencies.store.keys()) ?? [] }
}
