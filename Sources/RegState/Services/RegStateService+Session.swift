import Foundation

extension RegStateService {
    /// A usable access token for the host's requests, renewed first when it has expired, as a credential: its scheme
    /// (bearer, or DPoP with its key), expiry and carrier. A DPoP-bound token (``tokenBinding()``) is useless on its
    /// own: send requests through ``AuthorizedTransport``, which adds the `DPoP` scheme and a fresh proof. Concurrent
    /// callers share one renewal. After a store that could not be read at launch (**E** ``RenewalFailure/storage(_:)``)
    /// it reads the store again first, so a store that has come back settles the session without another ``start()``.
    ///
    /// - Throws: ``RegStateServiceError/offline(_:)`` (the session stays active) or
    ///   ``RegStateServiceError/renewal(_:)`` (**E**) when renewal fails; ``RegStateServiceError/noSession`` when no session is active;
    ///   ``RegStateServiceError/wrongSessionSource(_:)`` for a host-driven session (it has no access token).
    public nonisolated func validAccessToken() async throws(RegStateServiceError) -> AccessCredential {
        // Nonisolated, so that when the shared answer lands its waiters resume side by side rather than queueing for
        // the actor one by one.
        try await validCredential()
    }

    /// The ``validAccessToken()`` answer in progress, or a new one: callers that arrive meanwhile share its one read
    /// of the store and one renewal.
    func accessTokenAnswer() async throws(RegStateServiceError)
        -> Task<Result<AccessTokenAnswer, RegStateServiceError>, Never>
    {
        _ = await retryUnreadableStore()
        guard case .active(let session) = state else { throw .noSession }
        guard !session.isHostDriven else { throw .wrongSessionSource(.host) }
        return answers.join {
            do throws(RegStateServiceError) {
                return .success(try await self.resolveAccessToken())
            } catch {
                return .failure(error)
            }
        }.task
    }

    /// The work behind ``validAccessToken()``: one read of the record and, when its token has expired, one renewal,
    /// whose credential is the answer.
    private func resolveAccessToken() async throws(RegStateServiceError) -> AccessTokenAnswer {
        guard case .active = state else { throw .noSession }
        // A store that cannot be read now (a locked device) is a recoverable E, not "no session": the session stays.
        let read: TokenSnapshot?
        do {
            read = try await runner.tokens.readSnapshot()
        } catch {
            throw .renewal(.storage(error.errorDescription ?? "unreadable"))
        }
        guard let current = read else { throw .noSession }
        if current.isUsable { return .stored(current) }
        let renewal = await renewAccessToken(replacing: current.accessToken, because: .expired, seen: current)
        if case .success(let credential?) = renewal { return .renewed(credential) }
        // No credential at hand (nothing was done, or its key is not the stored one): the record decides.
        if let renewed = await runner.tokens.snapshot(), renewed.isUsable { return .stored(renewed) }
        if case .failure(let error) = renewal { throw error }
        throw .offline(.ssoUnspecifiedIssue)
    }

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
        for case .credentialsRemain(let reason) in applied.results { throw .credentialsRemain(reason) }
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
        let applied = try? await apply(.clearStateRequested)
        let after = Set(storedKeys())
        var installation = InstallationDeregistration.noBackend
        var remain: String?
        for case .cleared(let deregistration, let reason) in applied?.results ?? [] { (installation, remain) = (deregistration, reason) }
        return ClearStateResult(removedKeys: before.filter { !after.contains($0) }, installation: installation,
                                credentialsRemain: remain)
    }

    /// The keys in the secure store now.
    private func storedKeys() -> [String] { (try? runner.dependencies.store.keys()) ?? [] }
}
