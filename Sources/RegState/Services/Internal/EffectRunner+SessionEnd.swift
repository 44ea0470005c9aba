import Foundation

/// A session's or an attempt's end: provisional tokens, every token, clear-state, logout with revocation.
extension EffectRunner {
    /// Clears an attempt's provisional tokens (left over, they are never a session: the next launch removes them).
    func clearProvisionalTokens() async {
        do {
            try await tokens.withExclusiveAccess { () async throws(StoreError) in
                try await tokens.clearProvisional()
                // The attempt's own DPoP key, while the registration record holds it (not another process's since).
                if let own = await tokens.takeOwnRegistrationKey(),
                   (try? dpop.registrationKeys.load())?.thumbprint == own {
                    do {
                        try dpop.registrationKeys.remove()
                    } catch {
                        logger.log(.warning, "clear provisional: \(error.localizedDescription)")
                    }
                }
            }
        } catch {
            logger.log(.warning, "clear provisional: \(error.localizedDescription)")
        }
    }

    /// Removes all credentials of this session (and its DPoP key) under the store's lock; another process's session
    /// is left alone. `nil` when they are gone, else the store's error (``RegStateServiceError/credentialsRemain(_:)``).
    func clearAllTokens() async -> StoreError? {
        do {
            try await tokens.withExclusiveAccess(clearSession)
            return nil
        } catch {
            logger.log(.error, "clear tokens: \(error.localizedDescription)")
            return error
        }
    }

    /// Clear-state: asks the backend to forget this installation, then removes everything local under the store's
    /// lock, credentials before their DPoP key (docs/Internals-Services.md); the store's reason when it could not.
    func clearEverything() async -> (InstallationDeregistration, credentialsRemain: StoreError?) {
        let deregistration = await deregisterInstallation()
        do {
            try await tokens.withExclusiveAccess { () async throws(StoreError) in
                _ = try await tokens.clearEverything()
                // The DPoP keys went with every record, after the credentials: the nonces and the signer remain.
                dpop.forgetSession(removingKey: false)
            }
            return (deregistration, nil)
        } catch {
            logger.log(.error, "clear state: \(error.localizedDescription)")
            return (deregistration, error)
        }
    }

    /// `DELETE /v1/installation` with the stored security token, if there is a backend and a token.
    private func deregisterInstallation() async -> InstallationDeregistration {
        guard let backend else { return .noBackend }
        // An expired security token too: its 401 says the installation may still be registered.
        guard let securityToken = await tokens.snapshot()?.storedSecurityToken else { return .notRegistered }
        do {
            try await backend.deleteInstallation(securityToken: securityToken)
            return .deregistered
        } catch where error.isTransient {
            logger.log(.warning, "clear state: the backend could not be reached; the installation stays registered")
            return .offline(TransientIssue(error))
        } catch {
            logger.log(.warning, "clear state: the backend refused to remove the installation (\(error.localizedDescription))")
            return .refused(error)
        }
    }

    /// Logout, only online: the refresh token is revoked first; when the provider cannot be reached nothing changes.
    /// Returns the event to feed back and what the logout did.
    func logout() async -> (event: MachineEvent, result: Applied.Answer) {
        // Under the store's lock, so that no other process renews (and replaces) the refresh token being revoked.
        await tokens.withExclusiveAccess(orElse: { error in
            logger.log(.warning, "logout: \(error.localizedDescription)")
            return (.logoutRefused(.ssoUnspecifiedIssue), .logoutRefused(.ssoUnspecifiedIssue))
        }, logoutLocked)
    }

    private func logoutLocked() async -> (event: MachineEvent, result: Applied.Answer) {
        func refused(_ issue: TransientIssue) -> (MachineEvent, Applied.Answer) {
            (.logoutRefused(issue), .logoutRefused(issue))
        }
        // A record that cannot be read now (a locked device) is not "no refresh token": no logout without a server.
        let stored: TokenSnapshot?
        do {
            stored = try await tokens.readSnapshot()
        } catch {
            logger.log(.warning, "logout: \(error.localizedDescription)")
            return (.logoutRefused(.ssoUnspecifiedIssue), .logoutStoreUnreadable(error))
        }
        // Another process's session (it registered since this one's ended there) is not this logout's to revoke.
        var snapshot = stored
        if let record = stored?.record, !(await tokens.owned.holds(record)) { snapshot = nil }
        var result = LogoutResult.nothingToRevoke
        if let refreshToken = snapshot?.refreshToken {
            do {
                try await provider.revoke(token: refreshToken, hint: .refreshToken)
                result = .revoked
            } catch let error where error.isTransient {
                return refused(TransientIssue(error))
            } catch {
                // A provider without revocation, or one that refuses: the local logout still happens, and says so.
                if case .unsupported = error { result = .revocationUnsupported } else {
                    result = .revocationRefused(error.errorDescription ?? "refused")
                }
                logger.log(.warning, "logout: the refresh token was not revoked (\(error.localizedDescription))")
            }
        }
        // Host mode: even an expired security token goes to the backend, whose answer (any) shows the device online.
        let hostDriven = snapshot?.refreshToken == nil
        if let backend, let securityToken = snapshot?.securityToken ?? (hostDriven ? snapshot?.storedSecurityToken : nil) {
            do {
                try await backend.deleteInstallation(securityToken: securityToken)
            } catch {
                // Host mode has no refresh token to revoke: the backend is then the one that must be reached.
                if hostDriven, error.isTransient { return refused(TransientIssue(error)) }
            }
        }
        // RP-initiated logout, only after a sign-in in the browser (an emailed code left no browser session).
        var endSession: EndSessionRequest?
        if let idToken = snapshot?.idToken, snapshot?.session?.registrationType.mayLeaveProviderSession ?? true {
            endSession = await provider.endSessionRequest(idTokenHint: idToken)
        }
        do {
            try await clearSession()
        } catch {
            // Ended at the provider, not on the device: never a "logged out" with the tokens still stored.
            logger.log(.error, "logout: \(error.localizedDescription)")
            return (.loggedOut, .credentialsRemain(error))
        }
        return (.loggedOut, .loggedOut(LoggedOut(result: result, endSession: endSession)))
    }

    /// Removes this session's credentials and forgets its DPoP key (removed when it was this session's).
    private func clearSession() async throws(StoreError) {
        let ours = try await tokens.clearAll(keepingOngoingAccess: configuration.keepsOngoingAccessAfterSessionEnd)
        dpop.forgetSession(removingKey: ours)
    }
}
