import Foundation

/// The backend security token in both modes: handed out, renewed once for however many rejections, held off while
/// the backend keeps rejecting, and the session ended when the backend forces a logout.
extension RegStateService {
    /// The backend security token as a bearer credential: the stored one while it lives, else the renewed one (host
    /// mode: the host is told once, **E** ``RenewalFailure/awaitingHost``, and its ``updateToken(idToken:)`` awaited).
    /// - Throws: ``RegStateServiceError`` (``RegStateServiceError/cancelled`` when the caller's task is cancelled).
    public func securityToken() async throws(RegStateServiceError) -> AccessCredential {
        guard case .active(let session) = state, session.activation != .nonNative else { throw .noSession }
        guard let snapshot = try await readRecord() else { throw .noSession }
        if let usable = snapshot.securityToken, !flights.isRunning(.securityToken) {
            return AccessCredential(token: usable, carrier: .securityToken)
        }
        // Expired, missing or being renewed: the same path as a rejection of the stored one.
        let renewed = try await securityTokenRejected(snapshot.storedSecurityToken ?? "", because: .securityTokenExpired)
        return AccessCredential(token: renewed, carrier: .securityToken)
    }

    /// The backend rejected `token`: one renewal for every caller that saw it rejected, and the new token.
    /// - Throws: ``RegStateServiceError/rejectionHeld(until:)`` while `token`'s own rejection hold lasts;
    ///   ``RegStateServiceError/rejectedAfterRenewal`` when its renewal failed here moments ago; the renewal's failure.
    func securityTokenRejected(_ token: String, because trigger: RenewalTrigger = .backendUnauthorized,
                               holdCutShort: Bool = false) async throws(RegStateServiceError) -> String
    {
        guard case .active(let session) = state, session.activation != .nonNative else { throw .noSession }
        let rejected = trigger == .backendUnauthorized
        // A usable token stored meanwhile is the answer; for an expired or missing one even when it is the one seen
        // (renewing it would buy a second token, without a hold, for one expiry).
        let stored = await runner.tokens.snapshot()
        if let current = stored?.securityToken, current != token || !rejected, !flights.isRunning(.securityToken) {
            return current
        }
        if rejected, let until = await runner.tokens.heldUntil(token, carrier: .securityToken, in: stored?.record) {
            throw .rejectionHeld(until: until)
        }
        // Self mode, after a transient failure of the exchange (in any process): the recoverable E until the backoff
        // has passed, nothing sent.
        if !holdCutShort, !session.isHostDriven, !flights.isRunning(.securityToken),
           let snapshot = await runner.tokens.snapshot(),
           case .held = runner.tokens.holdPolicy.decide(snapshot.securityTokenBackoff, at: clock.now()) {
            throw .offline(snapshot.securityTokenBackoffIssue ?? .ssoUnspecifiedIssue)
        }
        if rejected { flights.noteRejection(of: token) }
        guard let renewed = try await renew(.securityToken, replacing: token, because: trigger).get() else {
            throw .noSession
        }
        return renewed.token
    }

    /// ``renewSession()``'s part for the security token (self mode): while a transient failure's backoff holds its
    /// exchange and none usable is stored, one exchange now, at most once per backoff step.
    func cutSecurityTokenHoldShort() async {
        guard case .active(let session) = state, session.activation != .nonNative, !session.isHostDriven,
              let snapshot = await runner.tokens.snapshot(), snapshot.securityToken == nil,
              flights.cutShort(.securityToken, snapshot.securityTokenBackoff, policy: runner.tokens.holdPolicy,
                               at: clock.now())
        else { return }
        _ = try? await securityTokenRejected(snapshot.storedSecurityToken ?? "", because: .securityTokenExpired,
                                             holdCutShort: true)
    }

    /// A request retried with a renewed token was rejected again: that token's rejection hold is stored.
    func rejectedAgain(_ credential: AccessCredential) async {
        do {
            try await runner.tokens.holdRejected(credential.token, carrier: credential.carrier)
        } catch {
            logger.log(.warning, "the rejection hold could not be stored: \(error.localizedDescription)")
        }
    }

    /// Self mode's renewal (``SecurityTokenExchange``), its failure applied to the session here (forced logout, the
    /// transient hold).
    func exchangeSecurityToken(replacing token: String, forRejection: Bool) async -> RenewalAnswer {
        do {
            let renewed = try await SecurityTokenExchange(runner: runner).renew(
                replacing: token, forRejection: forRejection,
                renewingProviderTokens: { accessToken throws(SecurityTokenRenewalError) in
                    try await self.renewProviderTokens(replacing: accessToken)
                })
            return .success(AccessCredential(token: renewed, carrier: .securityToken))
        } catch {
            switch error {
            case .noSession: return .failure(.noSession)
            case .authorization(let error): return .failure(error)
            case .storage(let error): return .failure(.storage(error))
            case .backend(let error): return .failure(await securityTokenFailure(error))
            }
        }
    }

    /// What the backend's failure of the exchange means for the session and the callers.
    private func securityTokenFailure(_ error: BackendError) async -> RegStateServiceError {
        if error == .forcedLogout { try? await handleForcedLogout() }
        guard error.isTransient else { return .backend(error == .unauthorized ? .invalidIDToken : error) }
        let issue = TransientIssue(error)
        do {
            try await runner.tokens.recordTransientFailure(.securityToken, issue: issue, retryAfter: error.retryAfter)
        } catch {
            logger.log(.warning, "the backoff hold could not be stored: \(error.localizedDescription)")
        }
        await feed(.renewalFailed(.transient(issue), stored: await runner.tokens.storedSession()))
        return .offline(issue)
    }

    /// Renews the provider tokens for a fresh ID token to exchange; a failure is the callers' offline or no-session.
    private func renewProviderTokens(replacing accessToken: String?) async throws(SecurityTokenRenewalError) {
        guard case .failure(let error) = await renewAccessToken(replacing: accessToken, because: .backendUnauthorized)
        else { return }
        switch error {
        case .offline(let issue), .renewal(.transient(let issue)): throw .authorization(.offline(issue))
        // A recoverable failure without an issue of its own (the store's) is the provider's.
        case .renewal(let failure) where failure.isRecoverable: throw .authorization(.offline(.ssoUnspecifiedIssue))
        default: throw .authorization(.noSession)
        }
    }
}
