import Foundation

/// Host mode (``SessionSource/host``): the host app owns the login and pushes ID tokens in; RegState validates them,
/// exchanges them for the backend security token and tells the host once when that token expired. Call
/// ``updateToken(idToken:)`` after the host's login, at launch when a session is active, and when the events say
/// **E** ``RenewalFailure/awaitingHost``.
extension RegStateService {
    /// The host's ID token: validated (the registration rules), exchanged at the backend for a security token bound to
    /// this installation, stored. From **D** the session becomes **Active H**; an active one is renewed (**Active C**)
    /// and the requests waiting for the host are retried once with the new security token. The same ID token again is
    /// ignored while the session is active, online and nothing waits for the host.
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
            let error: RegStateServiceError
            switch event {
            case .hostTokenAccepted:
                // The requests waiting for the host get the stored security token, read back; a store that refuses
                // the read now fails them with a recoverable storage error: the host's token was accepted all the same.
                let stored: String?
                do {
                    stored = try await runner.tokens.readSnapshot()?.securityToken
                } catch {
                    land(.securityToken, .failure(.renewal(.storage(error.errorDescription ?? "unreadable"))))
                    return state
                }
                guard let token = stored else {
                    land(.securityToken, .failure(.noSession))
                    throw .noSession
                }
                land(.securityToken, .success(AccessCredential(token: token, carrier: .securityToken)))
                return state
            case .hostTokenRefused(let failure): error = .registration(failure)
            case .renewalFailed(.transient(let issue), _): error = .offline(issue)
            case .forcedLogout: error = .backend(.forcedLogout)
            default: continue
            }
            land(.securityToken, .failure(error))
            throw error
        }
        return state
    }

    /// The host could not renew for a transient reason: **E** recoverable, the session stays active and offline, and
    /// the requests waiting for the host fail with ``RegStateServiceError/offline(_:)``. The host is not told again
    /// for this token before the backoff.
    ///
    /// - Throws: ``RegStateServiceError/noSession`` without a host-driven session;
    ///   ``RegStateServiceError/wrongSessionSource(_:)`` in self mode.
    public func notifyTokenRenewalTransientIssue(_ issue: TransientIssue) async throws(RegStateServiceError) {
        guard sessionSource == .host else { throw .wrongSessionSource(sessionSource) }
        guard let session = state.session, session.isHostDriven else { throw .noSession }
        await feed(.renewalFailed(.transient(issue), stored: await runner.tokens.storedSession()))
        land(.securityToken, .failure(.offline(issue)))
    }

    /// Ends the session for `reason` (in both modes): ``HostLogoutReason/userRequested`` is ``logout()``, only online;
    /// ``HostLogoutReason/ssoDenied`` and ``HostLogoutReason/allTokensExpiredOffline`` are **E** final, storage
    /// cleared, **D**. Requests waiting for a new token fail with ``RegStateServiceError/noSession``.
    ///
    /// - Returns: what happened at the provider.
    /// - Throws: ``RegStateServiceError/offline(_:)`` (nothing changed); ``RegStateServiceError/storage(_:)`` when a
    ///   user logout could not read the stored session; ``RegStateServiceError/noSession``;
    ///   ``RegStateServiceError/credentialsRemain(_:)`` when the session ended but its credentials stay stored.
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
