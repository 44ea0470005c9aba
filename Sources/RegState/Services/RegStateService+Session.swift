import Foundation

extension RegStateService {
    /// Renews the session now, whatever the stored token's expiry (after a store unreadable at launch: the launch
    /// inspection again), and returns the new state. For the user's "retry" and the host's "connectivity is back": it
    /// cuts a transient failure's backoff short at most once per backoff step, the security token's too.
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

    /// The simulation's report that a server rejected `token` (apps: ``AuthorizedTransport``): the new token, or `nil`.
    package func tokenRejected(_ token: String) async -> String? {
        guard case .active(let session) = state, session.activation != .nonNative, !session.isHostDriven else { return nil }
        return (try? await renewAfterRejection(of: token))??.token
    }

    /// A server rejected the access token `token`: the renewed credential, or the usable record found after it; `nil`
    /// when renewal failed or left `token` in place.
    /// - Throws: ``RegStateServiceError/rejectionHeld(until:)`` while `token`'s stored rejection hold lasts (from any
    ///   process or launch); a storage failure when the record cannot be read. Nothing is renewed then.
    func renewAfterRejection(of token: String) async throws(RegStateServiceError) -> AccessTokenAnswer? {
        let seen = try await readRecord()
        if let until = await runner.tokens.heldUntil(token, carrier: .accessToken, in: seen?.record) {
            throw .rejectionHeld(until: until)
        }
        guard case .active(let session) = state, session.activation != .nonNative, !session.isHostDriven else { return nil }
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
    /// - Throws: ``RegStateServiceError/rejected(_:)`` without a session; ``RegStateServiceError/credentialsRemain(_:)``
    ///   when the session ended but the store kept its credentials (``clearState()`` removes them).
    public func handleForcedLogout() async throws(RegStateServiceError) {
        let applied = try await apply(.forcedLogout)
        for case .credentialsRemain(let error) in applied.results { throw .credentialsRemain(error) }
    }

    /// Wipes all local state: every record RegState writes and the journal, after asking the backend to forget this
    /// installation (whatever it answers). Nothing is revoked at the provider (``logout()`` does that). The records
    /// are removed under the store's lock; when that fails they stay (``ClearStateResult/credentialsRemain``).
    /// - Returns: the removed secure-store keys, what happened at the backend, and why records remain.
    @discardableResult
    public func clearState() async -> ClearStateResult {
        let before = storedKeys()
        let applied = await feed(.clearStateRequested)
        let after = Set(storedKeys())
        var result = ClearStateResult(removedKeys: before.filter { !after.contains($0) }, installation: .noBackend,
                                      credentialsRemain: nil)
        for case .cleared(let deregistration, let reason) in applied?.results ?? [] {
            (result.installation, result.credentialsRemain) = (deregistration, reason)
        }
        return result
    }

    private func storedKeys() -> [String] { (try? runner.dependencies.store.keys()) ?? [] }

    /// Logs the user out, only online: revokes the refresh token at the provider, clears local credentials, **D**.
    /// - Returns: what happened at the provider and the request that ends the browser session there, if any.
    /// - Throws: ``RegStateServiceError/offline(_:)`` or ``RegStateServiceError/storage(_:)`` (a locked device), and
    ///   nothing changed; ``RegStateServiceError/credentialsRemain(_:)`` when the session ended but the store kept its
    ///   credentials; ``RegStateServiceError/rejected(_:)`` when there is no session to end.
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

    /// Whether the stored session's tokens are bound to the installation's DPoP key, with the key's thumbprint (never
    /// the key), for `status`: of the record as this service last read or wrote it.
    public func tokenBinding() async -> TokenBinding {
        guard let snapshot = await runner.tokens.lastSeenSnapshot(), snapshot.session != nil else { return .none }
        guard snapshot.isDPoPBound else { return .bearer }
        do {
            guard let key = try runner.dpop.boundKey(matching: snapshot.dpopThumbprint) else {
                return .dpopKeyUnavailable(reason: "the key record holds another key than the tokens'")
            }
            return .dpop(thumbprint: key.thumbprint)
        } catch {
            return .dpopKeyUnavailable(reason: error.errorDescription ?? "unreadable")
        }
    }

    /// When and how strongly the session's user signed in (`auth_time`, `acr` of the ID token as last read or
    /// written), `nil` without one.
    public func signInAssurance() async -> SignInAssurance? {
        SignInAssurance(idToken: await runner.tokens.lastSeenSnapshot()?.idToken)
    }
}
