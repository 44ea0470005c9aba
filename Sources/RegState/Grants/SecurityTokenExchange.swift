import Foundation

/// The backend security token's grant: an ID token exchanged at the backend for a security token bound to this
/// installation. Self mode renews the stored one with it (``renew(replacing:forRejection:renewingProviderTokens:)``);
/// host mode's ``HostIDTokenGrant`` exchanges the host's ID token through it.
struct SecurityTokenExchange: Sendable {
    /// The backend, the token service and the platform this exchange uses.
    let runner: EffectRunner

    /// Self mode: exchanges the stored ID token for a new security token replacing `token` (empty: none stored). A
    /// stored ID token past its `exp`, or one the backend refuses (its clock ahead of ours), is renewed first with
    /// `renewingProviderTokens` (given the access token this attempt started from), once.
    func renew(replacing token: String, forRejection: Bool,
               renewingProviderTokens: @Sendable (String?) async throws(SecurityTokenRenewalError) -> Void)
        async throws(SecurityTokenRenewalError) -> String
    {
        // The access token this attempt starts from: the provider renewal replaces exactly it, so a process that
        // renewed meanwhile is found under the lock and no second grant is made.
        let snapshot = await runner.tokens.snapshot()
        let replaced = token.isEmpty ? nil : token
        var renewedFirst = false
        if let idToken = snapshot?.idToken, let expiry = try? JSONWebToken(compact: idToken).expiresAt,
           expiry <= runner.dependencies.clock.now() {
            try await renewingProviderTokens(snapshot?.accessToken)
            renewedFirst = true
        }
        do {
            return try await renewStored(replacing: replaced, forRejection: forRejection)
        } catch .backend(.invalidIDToken) where !renewedFirst {
            try await renewingProviderTokens(snapshot?.accessToken)
            return try await renewStored(replacing: replaced, forRejection: forRejection)
        }
    }

    /// Exchanges the stored ID token and stores the result in place of `replaced` (with a ``RejectionHold`` when
    /// `forRejection`), under the store's lock, then retires `replaced` at the backend.
    /// - Throws: the backend's error, `rejectionHeld` when `replaced` is held under the lock, a storage failure, or
    ///   `noSession`.
    private func renewStored(replacing replaced: String?, forRejection: Bool) async throws(SecurityTokenRenewalError)
        -> String
    {
        let tokens = runner.tokens
        // Re-read under the lock: a process sharing the store may have renewed it meanwhile, and its token is used.
        let (token, bought) = try await underStoreLock { () async throws(SecurityTokenRenewalError) -> (String, Bool) in
            let read: TokenSnapshot?
            do throws(StoreError) {
                read = try await tokens.readSnapshot()
            } catch {
                throw .storage(error)
            }
            guard let backend = runner.backend, let snapshot = read, let idToken = snapshot.idToken else { throw .noSession }
            if let replaced, let current = snapshot.storedSecurityToken, current != replaced,
               snapshot.securityToken == current {
                return (current, false)
            }
            // The hold is read from the record just read: a second read a locked device refuses would answer "not
            // held" (seed 11810032432: the device locked between the two, and a second renewal went 2 s into a hold).
            if let replaced, forRejection,
               let until = await tokens.heldUntil(replaced, carrier: .securityToken, in: snapshot.record, underLock: true) {
                throw .authorization(.rejectionHeld(until: until))
            }
            let grant = try await securityToken(for: idToken, from: backend)
            let stored: Bool
            do throws(StoreError) {
                stored = try await tokens.storeSecurityToken(grant, replacing: replaced, forRejection: forRejection)
            } catch {
                // Nothing written: left live, the token just bought would count against the installation's limit.
                if error.isRecoverable { await retire(grant.securityToken) }
                throw .storage(error)
            }
            guard stored else {
                // Replaced meanwhile (a logout, another process): what is stored now is used.
                await retire(grant.securityToken)
                guard let current = await tokens.snapshot()?.securityToken else { throw .noSession }
                return (current, false)
            }
            return (grant.securityToken, true)
        }
        if bought, let replaced { await retire(replaced) }
        return token
    }

    /// Retires a replaced `securityToken` at the backend, where it offers that, so it stops counting against the
    /// installation's limit. Best effort, outside the store's lock.
    func retire(_ securityToken: String) async {
        guard let backend = runner.backend else { return }
        do {
            try await backend.retireSecurityToken(securityToken)
        } catch {
            if case .unexpectedStatus(404, _) = error { return }
            runner.logger.log(.info, "a replaced security token was not retired: \(error.errorDescription ?? "backend")")
        }
    }

    /// `body` under the store's lock, for an exchange and the write of its result.
    func underStoreLock<T>(_ body: () async throws(SecurityTokenRenewalError) -> T)
        async throws(SecurityTokenRenewalError) -> T
    {
        try await runner.tokens.withExclusiveAccess(
            orElse: { error throws(SecurityTokenRenewalError) in throw .storage(error) }, body)
    }

    /// A security token for `idToken`, bound to this installation, from `backend`.
    func securityToken(for idToken: String, from backend: any RegistrationBackend)
        async throws(SecurityTokenRenewalError) -> SecurityTokenGrant
    {
        let installation: InstallationInfo
        do {
            installation = try await runner.installation()
        } catch {
            throw .storage(error)
        }
        do {
            return try await backend.securityToken(idToken: idToken, installation: installation)
        } catch {
            throw .backend(error)
        }
    }
}
