import Foundation

/// The backend security token: the stored one renewed (self mode); the host's ID token is exchanged by
/// ``HostIDTokenGrant``.
extension EffectRunner {
    /// Self mode: exchanges the stored ID token for a new security token and stores it in place of `replaced`
    /// (with a ``RejectionHold`` when `forRejection`: the backend rejected `replaced`), then retires `replaced` at
    /// the backend where it offers that, so a backend that rejects every token is left with one live token.
    /// - Throws: the backend's error (``BackendError/invalidIDToken`` when the stored ID token has expired: renew the
    ///   provider tokens first), `rejectionHeld` when `replaced` is held under the lock (another process
    ///   renewed it for a rejection and it was rejected again), a storage failure, or `noSession`.
    func renewSecurityToken(replacing replaced: String?, forRejection: Bool) async throws(SecurityTokenRenewalError)
        -> String
    {
        // Under the store's lock, re-reading first: a process sharing the store may have renewed it meanwhile, and its
        // token is used instead of exchanging again.
        let (token, bought) = try await underStoreLock { () async throws(SecurityTokenRenewalError) -> (String, Bool) in
            // A store that cannot be read now (a locked device) is a recoverable storage failure, not "no session".
            let read: TokenSnapshot?
            do throws(StoreError) {
                read = try await tokens.readSnapshot()
            } catch {
                throw .storage(error)
            }
            guard let backend, let snapshot = read, let idToken = snapshot.idToken else { throw .noSession }
            if let replaced, let current = snapshot.storedSecurityToken, current != replaced,
               snapshot.securityToken == current {
                return (current, false)
            }
            if let replaced, forRejection,
               let until = await tokens.heldUntil(replaced, carrier: .securityToken, underLock: true) {
                throw .authorization(.rejectionHeld(until: until))
            }
            let grant = try await securityToken(for: idToken, from: backend)
            let stored: Bool
            do throws(StoreError) {
                stored = try await tokens.storeSecurityToken(grant, replacing: replaced, forRejection: forRejection)
            } catch {
                // Nothing written (a locked device, a busy lock): nobody holds the token just bought, and left live it
                // would count against the installation's limit until it expires.
                if error.isRecoverable { await retire(grant.securityToken) }
                throw .storage(error)
            }
            guard stored else {
                // Someone replaced it meanwhile (a logout, another process): use what is stored now, and retire the
                // token just bought, which nobody will use.
                await retire(grant.securityToken)
                guard let current = await tokens.snapshot()?.securityToken else { throw .noSession }
                return (current, false)
            }
            return (grant.securityToken, true)
        }
        if bought, let replaced { await retire(replaced) }
        return token
    }

    /// Retires `securityToken` at the backend, where it offers that (``RegistrationBackend/retireSecurityToken(_:)``):
    /// a replaced token stops counting against the installation's limit. Best effort, outside the store's lock: a
    /// backend without retirement, offline or refusing leaves it to expire there.
    func retire(_ securityToken: String) async {
        guard let backend else { return }
        do {
            try await backend.retireSecurityToken(securityToken)
        } catch {
            if case .unexpectedStatus(404, _) = error { return }
            logger.log(.info, "a replaced security token was not retired: \(error.errorDescription ?? "backend")")
        }
    }

    /// `body` under the store's lock, for an exchange and the write of its result.
    func underStoreLock<T>(_ body: () async throws(SecurityTokenRenewalError) -> T)
        async throws(SecurityTokenRenewalError) -> T
    {
        try await tokens.withExclusiveAccess(orElse: { error throws(SecurityTokenRenewalError) in throw .storage(error) },
                                             body)
    }

    /// A security token for `idToken`, bound to this installation, from `backend`.
    func securityToken(for idToken: String, from backend: any RegistrationBackend)
        async throws(SecurityTokenRenewalError) -> SecurityTokenGrant
    {
        let installation: InstallationInfo
        do {
            installation = try await self.installation()
        } catch {
            throw .storage(error)
        }
        do {
            return try await backend.securityToken(idToken: idToken, installation: installation)
        } catch {
            throw .backend(error)
        }
    }

    /// This installation as the backend knows it.
    func installation() async throws(StoreError) -> InstallationInfo {
        let platform = dependencies.platform.platform
        return InstallationInfo(installationID: try await tokens.installationID(), platform: platform.type,
                                formFactor: platform.formFactor)
    }
}
