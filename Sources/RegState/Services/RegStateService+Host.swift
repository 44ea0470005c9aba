import Foundation

/// Host mode (``SessionSource/host``): the host app owns the login and pushes ID tokens in; RegState
/// validates them, exchanges them for the backend security token and tells the host once when that token expired.
///
/// Call ``updateToken(idToken:)`` as the seed recommends: after the host's login, at launch when a session is active
/// (``RegState/session``), and when the events say **E** ``RenewalFailure/awaitingHost``. The same ID token again is
/// ignored while the session is active, online and nothing waits for the host.
extension RegStateService {
    /// The host's ID token: validated (the same rules as registration), exchanged at the backend for a security token
    /// bound to this installation, stored. From **D** the session becomes **Active H**; an active one is renewed
    /// (**Active C**) and the requests waiting for the host are retried once with the new security token.
    ///
    /// - Returns: the state afterwards.
    /// - Throws: ``RegStateServiceError/registration(_:)`` for an invalid ID token or the device or token limit;
    ///   ``RegStateServiceError/backend(_:)`` ``BackendError/forcedLogout``; ``RegStateServiceError/offline(_:)`` (the
    ///   session stays, offline); ``RegStateServiceError/wrongSessionSource(_:)`` in self mode.
    @discardableResult
    public func updateToken(idToken: String) async throws(RegStateServiceError) -> RegState {
        guard sessionSource == .host else { throw .wrongSessionSource(sessionSource) }
        if !state.isSettled { _ = await settled() }
        if case .active(let session) = state, session.connectivity == .online, !flights.isRunning(.securityToken),
           let stored = await runner.tokens.snapshot(), stored.idToken == idToken, stored.securityToken != nil {
            return state
        }
        for event in try await apply(.hostTokenSubmitted, carrying: .idToken(idToken)).events {
            switch event {
            case .hostTokenAccepted:
                // The session is stored; the requests waiting for the host get its security token, read back. A device
                // that refuses the read now (locked) fails them with a recoverable storage error, never leaves them
                // waiting: the host's token was accepted all the same.
                let stored: String?
                do {
                    stored = try await runner.tokens.readSnapshot()?.securityToken
                } catch {
                    failRenewal(.securityToken, .renewal(.storage(error.errorDescription ?? "unreadable")))
                    return state
                }
                guard let token = stored else {
                    failRenewal(.securityToken, .noSession)
                    throw .noSession
                }
                let answer: RenewalAnswer = .success(AccessCredential(token: token, carrier: .securityToken))
                resume(flights.land(.securityToken, answer, at: clock.now()), with: answer)
                return state
            case .hostTokenRefused(let failure):
                let error = RegStateServiceError.registration(failure)
                failRenewal(.securityToken, error)
                throw error
            case .renewalFailed(.transient(let issue), _):
                failRenewal(.securityToken, .offline(issue))
                throw .offline(issue)
            case .forcedLogout:
                failRenewal(.securityToken, .backend(.forcedLogout))
                throw .backend(.forcedLogout)
            default:
                continue
            }
        }
        return state
    }

    /// The host could not renew for a transient reason (the lifecycle design's `notifyTokenRenewalTransientIssue`): **E**
    /// recoverable, the session stays active and offline with its data, and the requests waiting for the host fail
    /// with ``RegStateServiceError/offline(_:)``. The host is not told again for this token before the backoff.
    ///
    /// - Throws: ``RegStateServiceError/noSession`` without a host-driven session;
    ///   ``RegStateServiceError/wrongSessionSource(_:)`` in self mode.
    public func notifyTokenRenewalTransientIssue(_ issue: TransientIssue) async throws(RegStateServiceError) {
        guard sessionSource == .host else { throw .wrongSessionSource(sessionSource) }
        guard let session = state.session, session.isHostDriven else { throw .noSession }
        await feed(.renewalFailed(.transient(issue), stored: await runner.tokens.storedSession()))
        failRenewal(.securityToken, .offline(issue))
    }

    /// Ends the session for `reason`, by the lifecycle design's precedence rules (in both modes):
    /// - ``HostLogoutReason/userRequested``: ``logout()``; only online, otherwise nothing changes.
    /// - ``HostLogoutReason/ssoDenied``: the SSO refused to renew; **E** final, storage cleared, **D**.
    /// - ``HostLogoutReason/allTokensExpiredOffline``: every token expired offline; **E** final, storage cleared, **D**.
    ///
    /// Requests waiting for a new token fail with ``RegStateServiceError/noSession``.
    ///
    /// - Returns: what happened at the provider.
    /// - Throws: ``RegStateServiceError/offline(_:)`` (nothing changed); ``RegStateServiceError/storage(_:)`` when a
    ///   user logout could not read the stored session (a locked device: nothing changed);
    ///   ``RegStateServiceError/noSession``; ``RegStateServiceError/credentialsRemain(_:)`` when the session ended
    ///   but its credentials stay stored.
    @discardableResult
    public func logout(_ reason: HostLogoutReason) async throws(RegStateServiceError) -> LogoutResult {
        switch reason {
        case .userRequested:
            do {
                return try await logout().result
            } catch .rejected {
                throw .noSession
            }
        case .ssoDenied, .allTokensExpiredOffline:
            guard let session = state.session, session.activation != .nonNative else { throw .noSession }
            let failure: RenewalFailure = reason == .ssoDenied ? .denied(reason: "sso_denied") : .credentialsExhausted
            let applied = await feed(.renewalFailed(failure, stored: await runner.tokens.storedSession()))
            for case .credentialsRemain(let reason) in applied?.results ?? [] { throw .credentialsRemain(reason) }
            return .nothingToRevoke
        }
    }
}
