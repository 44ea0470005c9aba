import Foundation

/// The host's pushed ID token (host mode): validated with the registration rules (no nonce: the host's login made
/// it), exchanged for this installation's security token, stored under the store's lock; one it replaces is retired.
struct HostIDTokenGrant: Sendable {
    /// The backend, the token service and the installation this grant exchanges with.
    let runner: EffectRunner
    private var securityTokens: SecurityTokenExchange { SecurityTokenExchange(runner: runner) }

    /// The session for `idToken`; `renewing`: a session is active, and a failure keeps it (offline on a transient one).
    func exchange(_ idToken: String, renewing: Bool) async -> MachineEvent {
        let verified: VerifiedIDToken
        do {
            verified = try await runner.provider.validateIDToken(idToken, expectedNonce: nil)
        } catch {
            if error.isTransient, renewing {
                return .renewalFailed(.transient(TransientIssue(error)), stored: await runner.tokens.storedSession())
            }
            return .hostTokenRefused(RegistrationFailure(error))
        }
        guard let backend = runner.backend else { return .hostTokenRefused(.unsupported("host mode needs a backend")) }
        let exchanged: (StoredSession, replaced: String?)
        do {
            // Under the store's lock, like every write that can race a renewal in another process sharing the store.
            exchanged = try await storeHostExchange(idToken, profile: verified.profile, backend: backend)
        } catch .backend(let error) {
            return await hostExchangeFailure(error, renewing: renewing)
        } catch .storage(let error) {
            return .hostTokenRefused(RegistrationFailure(error))
        } catch {
            return .hostTokenRefused(.storage("not stored"))  // not thrown here: only the backend and the store fail
        }
        if let replaced = exchanged.replaced { await securityTokens.retire(replaced) }
        return .hostTokenAccepted(exchanged.0)
    }

    /// What the backend's refusal of the host's ID token means: a forced logout or an offline session while one is
    /// active, otherwise a refusal.
    private func hostExchangeFailure(_ error: BackendError, renewing: Bool) async -> MachineEvent {
        if error == .forcedLogout, renewing { return .forcedLogout }
        if error.isTransient {
            guard renewing else { return .hostTokenRefused(RegistrationFailure(error)) }
            return .renewalFailed(.transient(TransientIssue(error)), stored: await runner.tokens.storedSession())
        }
        if error == .invalidIDToken || error == .unauthorized {
            return .hostTokenRefused(.backendFailed(BackendError.invalidIDToken.errorDescription ?? "refused"))
        }
        return .hostTokenRefused(RegistrationFailure(error))
    }

    /// Host mode's exchange and store under the store's lock: the session stored, and the security token it replaced.
    private func storeHostExchange(_ idToken: String, profile: Profile, backend: any RegistrationBackend)
        async throws(SecurityTokenRenewalError) -> (StoredSession, replaced: String?)
    {
        try await securityTokens.underStoreLock { () async throws(SecurityTokenRenewalError) in
            let previous = await runner.tokens.snapshot()?.storedSecurityToken
            let grant = try await securityTokens.securityToken(for: idToken, from: backend)
            do throws(StoreError) {
                let stored = try await runner.tokens.storeHostSession(
                    idToken: idToken, profile: profile, securityToken: grant.securityToken,
                    expiresAt: RecordedTime.expiry(after: grant.expiresIn, from: runner.dependencies.clock.now()))
                return (stored, previous == grant.securityToken ? nil : previous)
            } catch {
                throw .storage(error)
            }
        }
    }
}
