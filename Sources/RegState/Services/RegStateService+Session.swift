import Foundation

extension RegStateService {
    /// Renews the session now, whatever the stored token's expiry, and returns the new state; after a store that
    /// could not be read at launch it runs the launch inspection again instead.
    ///
    /// Call it for the user's "retry" and the host's "connectivity is back": it cuts a transient failure's backoff
    /// short at most once per backoff step (ten taps in a second cost the provider one grant), and the backend
    /// security token's the same way when none usable is stored.
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
    /// renewal failed. Apps get this through ``AuthorizedTransport``; the simulation reports rejections with it.
    package func tokenRejected(_ token: String) async -> String? {
        guard case .active(let session) = state, session.activation != .nonNative, !session.isHostDriven else { return nil }
        return (try? await renewAfterRejection(of: token))??.token
    }

    /// A server rejected the access token `token`: the renewed credential, or the usable record found after it, or
    /// `nil` when renewal failed or left the rejected token in place.
    /// - Throws: ``RegStateServiceError/rejectionHeld(until:)`` when `token` was renewed for a rejection (in any
    ///   process, at any launch) and its stored hold has not passed; a storage failure when the record cannot be read
    ///   now (its hold cannot be checked). Nothing is renewed then.
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
    ///
    /// - Throws: ``RegStateServiceError/rejected(_:)`` when no session is active;
    ///   ``RegStateServiceError/credentialsRemain(_:)`` when the session ended (**E** `forcedLogout`) but the store
    ///   did not let its credentials be removed (``clearState()`` removes them).
    public func handleForcedLogout() async throws(RegStateServiceError) {
        land(.securityToken, .failure(.backend(.forcedLogout)))
        let applied = try await apply(.forcedLogout)
        for case .credentialsRemain(let error) in applied.results { throw .credentialsRemain(error) }
    }

    /// Wipes all local state: every record RegState writes and the journal. First, with a backend and a stored
    /// security token, asks the backend to forget this installation (freeing its device slot); local state is cleared
    /// whatever it answers. Nothing is revoked at the provider (``logout()`` does that). The records are removed under
    /// the store's lock: when it cannot be had or a removal fails, they stay (``ClearStateResult/credentialsRemain``).
    ///
    /// - Returns: the secure-store keys that were removed, what happened at the backend, and why records remain.
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

    /// Whether the stored session's tokens are bound to the installation's DPoP key, with the key's RFC 7638
    /// thumbprint (never the key), for `status`: of the record as this service last read or wrote it (the one its
    /// state comes from; read now when it has read none yet).
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

    /// When and how strongly the session's user signed in (`auth_time` and `acr` of the stored ID token, as this
    /// service last read or wrote it, like ``RegStateService/tokenBinding()``), `nil` without a session's ID token
    /// (none stored, the non-native token, a store that cannot be read now).
    public func signInAssurance() async -> SignInAssurance? {
        SignInAssurance(idToken: await runner.tokens.lastSeenSnapshot()?.idToken)
    }
}
