import Foundation

/// The backend security token's life in both modes: handed out, renewed once for however many rejections, held off
/// when the backend keeps rejecting, and the session ended when the backend forces a logout.
extension RegStateService {
    /// The backend security token as a bearer credential (``TokenCarrier/securityToken``): the stored one while it
    /// lives; when it expired, or while a renewal runs, the renewed one. In self mode an expired token is renewed with
    /// the stored ID token; in host mode the host is told once (**E** ``RenewalFailure/awaitingHost``) and the call
    /// waits for its ``updateToken(idToken:)``. A cancelled caller stops waiting; the renewal goes on for the others.
    /// - Throws: ``RegStateServiceError`` (``RegStateServiceError/cancelled`` when the caller's task is cancelled).
    public func securityToken() async throws(RegStateServiceError) -> AccessCredential {
        AccessCredential(token: try await currentSecurityToken(), carrier: .securityToken)
    }

    private func currentSecurityToken() async throws(RegStateServiceError) -> String {
        guard case .active(let session) = state, session.activation != .nonNative else { throw .noSession }
        // A store that cannot be read now (a locked device) is a recoverable E, not "no session": the session stays.
        let read: TokenSnapshot?
        do {
            read = try await runner.tokens.readSnapshot()
        } catch {
            throw .renewal(.storage(error.errorDescription ?? "unreadable"))
        }
        guard let snapshot = read else { throw .noSession }
        if let usable = snapshot.securityToken, !flights.isRunning(.securityToken) { return usable }
        // Expired, missing or being renewed: the same path as a rejection of the stored one.
        return try await securityTokenRejected(snapshot.storedSecurityToken ?? "", because: .securityTokenExpired)
    }

    /// How many authorized requests wait for a renewed security token now (host mode: for the host's answer).
    package var heldRequestCount: Int {
        get async { flights.waiting(.securityToken) }
    }

    /// The backend rejected `token`: one renewal for every caller that saw it rejected, and the new token.
    ///
    /// - Throws: ``RegStateServiceError/rejectionHeld(until:)`` when `token` was itself renewed for a rejection and
    ///   its hold has not passed; ``RegStateServiceError/rejectedAfterRenewal`` when a renewal for it failed here
    ///   moments ago; the renewal's failure; ``RegStateServiceError/cancelled``.
    func securityTokenRejected(_ token: String, because trigger: RenewalTrigger = .backendUnauthorized,
                               holdCutShort: Bool = false) async throws(RegStateServiceError) -> String
    {
        guard case .active(let session) = state, session.activation != .nonNative else { throw .noSession }
        // A usable token stored meanwhile (another caller's renewal landed while this one waited to get here) is the
        // answer: for a token that was not rejected (an expired or missing one) even when it is the one seen, since
        // renewing it would buy a second token, without a hold, for one expiry.
        if let current = await runner.tokens.snapshot()?.securityToken,
           current != token || trigger != .backendUnauthorized,
           !flights.isRunning(.securityToken) {
            return current
        }
        // Renewed for a rejection (here or in another process, this launch or an earlier one) and rejected again
        // before its hold has passed: no new exchange.
        if trigger == .backendUnauthorized, let until = await runner.tokens.heldUntil(token, carrier: .securityToken) {
            throw .rejectionHeld(until: until)
        }
        // Self mode, after a transient failure of the exchange (here or in another process, this launch or an earlier
        // one): the recoverable E at once, nothing sent, until the backoff has passed (``RenewalHoldPolicy``).
        if !holdCutShort, !session.isHostDriven, !flights.isRunning(.securityToken),
           let snapshot = await runner.tokens.snapshot(),
           case .held = runner.tokens.holdPolicy.decide(snapshot.securityTokenBackoff, at: clock.now()) {
            throw .offline(snapshot.securityTokenBackoffIssue ?? .ssoUnspecifiedIssue)
        }
        if trigger == .backendUnauthorized { flights.noteRejection(of: token) }
        // While a renewal is pending (in host mode: the host is asked, E awaitingHost, once), every caller waits for
        // it, whichever token it saw (``FlightMachine/admit(_:replacing:at:)``).
        guard let renewed = try await renew(.securityToken, replacing: token, because: trigger).get() else {
            throw .noSession
        }
        return renewed.token
    }

    /// ``renewSession()``'s part for the backend security token (self mode): while a transient failure's backoff holds
    /// its exchange and no usable one is stored, one exchange now, at most once per backoff step.
    func cutSecurityTokenHoldShort() async {
        guard case .active(let session) = state, session.activation != .nonNative, !session.isHostDriven,
              let snapshot = await runner.tokens.snapshot(), snapshot.securityToken == nil,
              flights.cutShort(.securityToken, snapshot.securityTokenBackoff, policy: runner.tokens.holdPolicy,
                               at: clock.now())
        else { return }
        _ = try? await securityTokenRejected(snapshot.storedSecurityToken ?? "", because: .securityTokenExpired,
                                             holdCutShort: true)
    }

    /// A request retried with a renewed token was rejected again: that token is held in the store (unless it
    /// already is), so no process renews it for a rejection before the hold has passed.
    func rejectedAgain(_ credential: AccessCredential) async {
        do {
            try await runner.tokens.holdRejected(credential.token, carrier: credential.carrier)
        } catch {
            logger.log(.warning, "the rejection hold could not be stored: \(error.localizedDescription)")
        }
    }

    /// Self mode: the renewal every waiter gets the answer of (``exchangeRenewingIDToken(replacing:forRejection:)``);
    /// a failure is applied to the session here (forced logout, the transient hold).
    func exchangeSecurityToken(replacing token: String, forRejection: Bool) async -> RenewalAnswer {
        do {
            let renewed = try await exchangeRenewingIDToken(replacing: token, forRejection: forRejection)
            return .success(AccessCredential(token: renewed, carrier: .securityToken))
        } catch {
            return .failure(await securityTokenFailure(error))
        }
    }

    /// Exchanges the stored ID token for a new security token; when it has expired or the backend refuses it,
    /// renews the provider tokens once first and exchanges the new one.
    private func exchangeRenewingIDToken(replacing token: String, forRejection: Bool) async throws(SecurityTokenRenewalError)
        -> String
    {
        // The access token (and its ID token) this attempt starts from: the renewal below replaces exactly it, so a
        // process sharing the store that renewed meanwhile is found under the lock and no second grant is made.
        let snapshot = await runner.tokens.snapshot()
        let replaced = token.isEmpty ? nil : token
        // A stored ID token past its own `exp` would only be refused: the provider tokens are renewed first, so an
        // expired session costs two exchanges (the refused one is skipped), not three.
        var renewedFirst = false
        if let idToken = snapshot?.idToken, let expiry = try? JSONWebToken(compact: idToken).expiresAt,
           expiry <= clock.now() {
            try await renewProviderTokens(replacing: snapshot?.accessToken)
            renewedFirst = true
        }
        do {
            return try await runner.renewSecurityToken(replacing: replaced, forRejection: forRejection)
        } catch .backend(.invalidIDToken) where !renewedFirst {
            // Refused all the same (the backend's clock is ahead of ours): renew, and exchange the new one.
            try await renewProviderTokens(replacing: snapshot?.accessToken)
            return try await runner.renewSecurityToken(replacing: replaced, forRejection: forRejection)
        }
    }

    /// Renews the provider tokens for a fresh ID token to exchange; a failure is the callers' offline or no-session.
    private func renewProviderTokens(replacing accessToken: String?) async throws(SecurityTokenRenewalError) {
        if case .failure(let error) = await renewAccessToken(replacing: accessToken, because: .backendUnauthorized) {
            switch error {
            case .offline(let issue): throw .authorization(.offline(issue))
            case .renewal(let failure) where failure.isRecoverable: throw .authorization(.offline(failure.transientIssue))
            default: throw .authorization(.noSession)
            }
        }
    }

    /// What a failed renewal means for the callers (and, for the backend's answers, the session).
    private func securityTokenFailure(_ error: SecurityTokenRenewalError) async -> RegStateServiceError {
        switch error {
        case .noSession: .noSession
        case .authorization(let error): error
        case .storage(let error): .storage(error)
        case .backend(let error): await securityTokenFailure(error)
        }
    }

    /// What a backend failure of the renewal means for the session and the callers.
    private func securityTokenFailure(_ error: BackendError) async -> RegStateServiceError {
        if error == .forcedLogout { try? await handleForcedLogout() }
        guard error.isTransient else { return .backend(error == .unauthorized ? .invalidIDToken : error) }
        let issue = TransientIssue(error)
        do {
            try await runner.tokens.recordTransientFailure(.securityToken, issue: issue, retryAfter: error.retryAfter)
        } catch {
            logger.log(.warning, "the backoff hold could not be stored: \(error.localizedDescription)")
        }
        _ = await feed(.renewalFailed(.transient(issue), stored: await runner.tokens.storedSession()))
        return .offline(issue)
    }
}

extension RenewalFailure {
    /// The transient issue of a recoverable failure (`ssoUnspecifiedIssue` for a storage failure).
    var transientIssue: TransientIssue {
        if case .transient(let issue) = self { return issue }
        return .ssoUnspecifiedIssue
    }
}
