import Foundation

/// The backend security token: the host's ID token exchanged (host mode) and the stored one renewed (self mode).
extension EffectRunner {
    /// Host mode: validates `idToken` with the registration rules (no nonce: the host's login made it), exchanges it
    /// for a security token bound to this installation and stores the session. `renewing` says whether a session is
    /// active (a failure then keeps it: offline on a transient one).
    func exchangeHostIDToken(_ idToken: String, renewing: Bool) async -> MachineEvent {
        let verified: VerifiedIDToken
        do {
            verified = try await provider.validateIDToken(idToken, expectedNonce: nil)
        } catch {
            if error.isTransient, renewing {
                return .renewalFailed(.transient(TransientIssue(error)), stored: await tokens.storedSession())
            }
            return .hostTokenRefused(RegistrationFailure(error))
        }
        guard let backend else { return .hostTokenRefused(.unsupported("host mode needs a backend")) }
        // Under the store's lock, like every write that can race a renewal in another process sharing the store.
        let lease: any StoreLease
        let installation: InstallationInfo
        do {
            lease = try await tokens.exclusiveAccess()
        } catch {
            return .hostTokenRefused(.storage(error.errorDescription ?? "store"))
        }
        defer { lease.release() }
        do {
            installation = try await self.installation()
        } catch {
            return .hostTokenRefused(.storage(error.localizedDescription))
        }
        let grant: SecurityTokenGrant
        do {
            grant = try await backend.securityToken(idToken: idToken, installation: installation)
        } catch {
            if error == .forcedLogout, renewing { return .forcedLogout }
            if error.isTransient {
                guard renewing else { return .hostTokenRefused(.providerUnreachable(error.errorDescription ?? "backend")) }
                return .renewalFailed(.transient(TransientIssue(error)), stored: await tokens.storedSession())
            }
            if error == .invalidIDToken || error == .unauthorized {
                return .hostTokenRefused(.backendFailed(BackendError.invalidIDToken.errorDescription ?? "refused"))
            }
            return .hostTokenRefused(RegistrationFailure(error))
        }
        do {
            let stored = try await tokens.storeHostSession(
                idToken: idToken, profile: verified.profile, securityToken: grant.securityToken,
                expiresAt: RecordedTime.expiry(after: grant.expiresIn, from: dependencies.clock.now()))
            return .hostTokenAccepted(stored)
        } catch {
            return .hostTokenRefused(.storage(error.localizedDescription))
        }
    }

    /// Self mode: exchanges the stored ID token for a new security token and stores it in place of `replaced`.
    ///
    /// - Returns: the new security token.
    /// - Throws: ``BackendError`` (``BackendError/invalidIDToken`` when the stored ID token has expired: renew the
    ///   provider tokens first), or ``AuthorizationError/noSession``.
    func renewSecurityToken(replacing replaced: String?) async throws(SecurityTokenRenewalError) -> String {
        // Under the store's lock, re-reading first: a process sharing the store may have renewed it meanwhile, and
        // its token is used instead of exchanging again.
        let lease: any StoreLease
        do {
            lease = try await tokens.exclusiveAccess()
        } catch {
            throw .storage(error.errorDescription ?? "store")
        }
        defer { lease.release() }
        guard let backend, let snapshot = await tokens.snapshot(), let idToken = snapshot.idToken else {
            throw .noSession
        }
        if let replaced, let current = snapshot.storedSecurityToken, current != replaced, snapshot.securityToken == current {
            return current
        }
        let installation: InstallationInfo
        do {
            installation = try await self.installation()
        } catch {
            throw .storage(error.localizedDescription)
        }
        let grant: SecurityTokenGrant
        do {
            grant = try await backend.securityToken(idToken: idToken, installation: installation)
        } catch {
            throw .backend(error)
        }
        let stored: Bool
        do {
            stored = try await tokens.storeSecurityToken(grant, replacing: replaced)
        } catch {
            throw .storage(error.localizedDescription)
        }
        guard stored else {
            // Someone replaced it meanwhile (a logout, another process): use what is stored now.
            guard let current = await tokens.snapshot()?.securityToken else { throw .noSession }
            return current
        }
        return grant.securityToken
    }

    /// This installation as the backend knows it.
    func installation() async throws -> InstallationInfo {
        let platform = dependencies.platform.platform
        return InstallationInfo(installationID: try await tokens.installationID(), platform: platform.type,
                                formFactor: platform.formFactor)
    }
}
