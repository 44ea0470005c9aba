import Foundation

/// Host mode (``SessionSource/host``): the host app owns the login and pushes ID tokens in; RegState exchanges them
/// for the backend security token and tells the host once when that token expired.
extension RegStateService {
    /// The host's ID token (after its login, at launch, on **E** ``RenewalFailure/awaitingHost``): validated,
    /// exchanged for a security token, stored: **Active H** from **D**, **Active C** for an active session, whose
    /// waiting requests get the new token. The same ID token again is ignored while nothing waits for it.
    /// - Returns: the state afterwards.
    /// - Throws: ``RegStateServiceError/registration(_:)`` (an invalid ID token, a limit);
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
                // The waiting requests get the stored security token, read back (unreadable: a recoverable failure).
                do throws(RegStateServiceError) {
                    guard let token = try await readRecord()?.securityToken else { throw .noSession }
                    land(.securityToken, .success(AccessCredential(token: token, carrier: .securityToken)))
                } catch {
                    land(.securityToken, .failure(error))
                    if error == .noSession { throw error }
                }
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
    /// the requests waiting for the host fail with ``RegStateServiceError/offline(_:)``.
    /// - Throws: ``RegStateServiceError/noSession`` without a host-driven session;
    ///   ``RegStateServiceError/wrongSessionSource(_:)`` in self mode.
    public func notifyTokenRenewalTransientIssue(_ issue: TransientIssue) async throws(RegStateServiceError) {
        guard sessionSource == .host else { throw .wrongSessionSource(sessionSource) }
        guard let session = state.session, session.isHostDriven else { throw .noSession }
        await feed(.renewalFailed(.transient(issue), stored: await runner.tokens.storedSession()))
        land(.securityToken, .failure(.offline(issue)))
    }

    /// Ends the session for `reason` (in both modes): ``HostLogoutReason/userRequested`` is ``logout()``; the others
    /// are **E** final, storage cleared, **D**.
    /// - Returns: what happened at the provider.
    /// - Throws: the errors of ``logout()``; ``RegStateServiceError/noSession``.
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
