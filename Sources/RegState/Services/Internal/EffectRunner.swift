import Foundation

/// Performs the effects that talk to the outside world (store, provider, backend) and answers with the event that
/// reports the result. It keeps no state of its own: the service shell owns the state, the login in progress and the
/// event and journal plumbing, and feeds the answer back through the machine.
struct EffectRunner: Sendable {
    let configuration: RegStateConfiguration
    let dependencies: RegStateDependencies
    let tokens: TokenService
    let provider: OIDCClient
    let backend: (any RegistrationBackend)?
    /// The installation's DPoP key, nonces and signer (RFC 9449), shared with the provider client and the renewal.
    let dpop: DPoPContext
    /// The refresh-token grant's one flight.
    let renewal: RenewalService
    var logger: any RegStateLogger { dependencies.logger }

    init(configuration: RegStateConfiguration, dependencies: RegStateDependencies) {
        self.configuration = configuration
        self.dependencies = dependencies
        tokens = TokenService(store: dependencies.store, clock: dependencies.clock, crypto: dependencies.crypto,
                              gracePeriod: configuration.gracePeriod, binding: CredentialBinding(configuration.oidc))
        let logger = dependencies.logger
        let clockEstimate = ProviderClockEstimate()
        let dpop = DPoPContext(mode: configuration.dpop, store: dependencies.store, crypto: dependencies.crypto,
                               clock: dependencies.clock, clockEstimate: clockEstimate)
        self.dpop = dpop
        let provider = OIDCClient(configuration: configuration.oidc, transport: dependencies.transport,
                                  crypto: dependencies.crypto, clock: dependencies.clock, clockEstimate: clockEstimate,
                                  onClockOffset: { offset in logger.log(.warning, ClockOffsetNote.sentence(offset)) },
                                  dpop: dpop)
        self.provider = provider
        renewal = RenewalService(tokens: tokens, provider: provider, clock: dependencies.clock, dpop: dpop)
        if let backend = dependencies.backend {
            self.backend = backend
        } else if let url = configuration.backendURL {
            backend = HTTPRegistrationBackend(baseURL: url, transport: dependencies.transport,
                                              retiresSecurityTokens: configuration.backendRetiresSecurityTokens)
        } else {
            backend = nil
        }
    }

    /// Whether the platform is native.
    var isNative: Bool { dependencies.platform.platform.isNative }

    /// The keys in the secure store now.
    func storedKeys() -> [String] { (try? dependencies.store.keys()) ?? [] }

    func installNonNativeToken() async -> MachineEvent {
        do {
            try await tokens.installNonNativeToken(configuration.nonNativeAccessToken)
        } catch {
            logger.log(.error, "non-native token: \(error.localizedDescription)")
        }
        return .nonNativeTokenInstalled
    }

    /// The launch inspection, and the expired access token a launch renewal is to replace (never journaled).
    func inspectStoredTokens() async -> (event: MachineEvent, stale: SecretInput?) {
        if configuration.sessionSource == .host { _ = await tokens.migrateLegacyHostSession() }
        let inspected = await tokens.inspectWithAccessToken()
        if case .nothing = inspected.status { await tokens.removeAbandonedProvisional() }
        return (.storedTokensInspected(inspected.status), inspected.expiredAccessToken.map(SecretInput.staleAccessToken))
    }

    /// A new registration's DPoP key (RFC 9449): a fresh one replacing the old when DPoP is on and the provider
    /// offers ES256 proofs; none (the old one removed) otherwise.
    ///
    /// - Throws: ``OIDCError/dpop(_:)`` (``DPoPError/notOffered`` when DPoP is required), discovery errors.
    func keyForNewRegistration() async throws(OIDCError) -> DPoPKey? {
        let offered = dpop.mode == .off ? false : try await provider.metadata().offersDPoP
        do {
            let key = try dpop.keyForNewRegistration(offered: offered)
            await tokens.madeRegistrationKey(key?.thumbprint)
            return key
        } catch {
            throw .dpop(error)
        }
    }

    /// The key the registration in progress binds its tokens to, if any.
    func registrationKey() throws(OIDCError) -> DPoPKey? {
        do {
            return try dpop.registrationKey()
        } catch {
            throw .dpop(error)
        }
    }

    func sendPasswordlessCode(to email: String) async -> MachineEvent {
        // A passwordless begin supersedes a social login left pending before a relaunch.
        await discardPendingLogin()
        do {
            _ = try await keyForNewRegistration()
            try await provider.startPasswordless(email: email)
            return .authorizationIssued
        } catch {
            return .registrationFailed(RegistrationFailure(error))
        }
    }

    func verifyPasswordlessCode(_ code: String, for email: String,
                                stillWanted: @Sendable () async -> Bool) async -> MachineEvent? {
        do {
            let key = try registrationKey()
            let response = try await provider.verifyPasswordless(email: email, code: code, proofKey: key)
            return await authenticate(with: response, nonce: nil, type: .passwordless, proofKey: key, stillWanted: stillWanted)
        } catch {
            return .registrationFailed(RegistrationFailure(error))
        }
    }

    /// Validates the ID token, then stores the tokens as provisional: only a validated identity reaches G.
    func authenticate(with response: TokenResponse, nonce: String?, type: RegistrationType, proofKey: DPoPKey?,
                              stillWanted: @Sendable () async -> Bool) async -> MachineEvent? {
        guard let idToken = response.idToken else {
            return .registrationFailed(.malformedResponse("the token response has no id_token"))
        }
        let verified: VerifiedIDToken
        do {
            verified = try await provider.validateIDToken(idToken, expectedNonce: nonce, freshFromTokenEndpoint: true)
        } catch {
            return .registrationFailed(RegistrationFailure(error))
        }
        guard await stillWanted() else { return nil }
        // The key and the tokens are two store values: both are written under the store's lock, so that another
        // process that finds its key replaced (the record's `dpop_jkt` names another) reads the new pair under it.
        let lease: any StoreLease
        do {
            lease = try await tokens.exclusiveAccess()
        } catch {
            return .registrationFailed(RegistrationFailure(mapping: error))
        }
        defer { lease.release() }
        let key: DPoPKey?
        do {
            // The registration's key becomes the session's now, with its tokens, not when it started.
            key = try dpop.promote(proofKey)
        } catch {
            return .registrationFailed(RegistrationFailure(OIDCError.dpop(error)))
        }
        do {
            return .authenticated(try await tokens.storeProvisional(response, registrationType: type, profile: verified.profile,
                                                                    dpopThumbprint: key?.thumbprint))
        } catch {
            return .registrationFailed(RegistrationFailure(mapping: error))
        }
    }

    /// Confirm: register the installation and the profile with the backend, then confirm the tokens.
    func confirmRegistration() async -> MachineEvent {
        do {
            let lease = try await tokens.exclusiveAccess()
            defer { lease.release() }
            guard let backend else { return .registrationConfirmed(try await tokens.confirm()) }
            guard let snapshot = await tokens.snapshot(), let idToken = snapshot.idToken, let stored = snapshot.session else {
                return .registrationFailed(.noPendingLogin)
            }
            let platform = dependencies.platform.platform
            let installation = InstallationInfo(installationID: try await tokens.installationID(),
                                                platform: platform.type, formFactor: platform.formFactor)
            let grant = try await backend.securityToken(idToken: idToken, installation: installation)
            let grantReceived = dependencies.clock.now()
            try await backend.updateProfile(stored.profile, registrationType: stored.registrationType,
                                            securityToken: grant.securityToken)
            let confirmed = try await tokens.confirm(securityToken: grant.securityToken, securityTokenLifetime: grant.expiresIn,
                                                     securityTokenReceivedAt: grantReceived)
            return .registrationConfirmed(confirmed)
        } catch {
            return .registrationFailed(RegistrationFailure(mapping: error))
        }
    }

    func clearProvisionalTokens() async {
        do {
            let lease = try await tokens.exclusiveAccess()
            defer { lease.release() }
            try await tokens.clearProvisional()
            // The failed attempt's own DPoP key, while the registration record still holds it (another process's
            // registration may have put its own there since).
            if let own = await tokens.takeOwnRegistrationKey(), (try? dpop.registrationKeys.load())?.thumbprint == own {
                try dpop.registrationKeys.remove()
            }
        } catch {
            // Left-over provisional tokens are never a session: the next launch removes them.
            logger.log(.warning, "clear provisional: \(error.localizedDescription)")
        }
    }

    /// Removes all credentials of this session (and its DPoP key), under the store's lock; another process's
    /// session is left alone. `nil` when they are gone; otherwise the store's reason (its lock not taken in time, a
    /// removal refused), which the call that ended the session reports (``LogoutError/credentialsRemain(_:)``).
    func clearAllTokens() async -> String? {
        do {
            let lease = try await tokens.exclusiveAccess()
            defer { lease.release() }
            let ours = try await tokens.clearAll(keepingOngoingAccess: configuration.keepsOngoingAccessAfterSessionEnd)
            dpop.forgetSession(removingKey: ours)
            return nil
        } catch {
            logger.log(.error, "clear tokens: \(error.localizedDescription)")
            return error.localizedDescription
        }
    }

    /// Clear-state: asks the backend to forget this installation (with the stored security token, when online),
    /// then removes everything local whatever the backend said. Revokes nothing at the provider.
    ///
    /// - Returns: what happened at the backend.
    func clearEverything() async -> InstallationDeregistration {
        let deregistration = await deregisterInstallation()
        dpop.forget()
        do {
            let lease = try await tokens.exclusiveAccess()
            defer { lease.release() }
            _ = try await tokens.clearEverything()
        } catch {
            logger.log(.error, "clear state: \(error.localizedDescription)")
        }
        return deregistration
    }

    /// `DELETE /v1/installation` with the stored security token, if there is a backend and a token.
    private func deregisterInstallation() async -> InstallationDeregistration {
        guard let backend else { return .noBackend }
        // An expired security token too: the backend then says so (401), and the result says the installation may
        // still be registered, rather than claiming there was nothing to remove.
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

    /// Logout only while online: the refresh token is revoked first; if the provider cannot be reached,
    /// nothing changes (``MachineEvent/logoutRefused(_:)`` and no result).
    ///
    /// - Returns: the event to feed back and what the logout did: logged out (at the provider, and the end-session
    ///   request) or refused.
    func logout() async -> (event: MachineEvent, result: EffectResult) {
        // Under the store's lock, so that no other process renews (and replaces) the refresh token being revoked.
        let lease: any StoreLease
        do {
            lease = try await tokens.exclusiveAccess()
        } catch {
            logger.log(.warning, "logout: \(error.localizedDescription)")
            return (.logoutRefused(.ssoUnspecifiedIssue), .logoutRefused(.ssoUnspecifiedIssue))
        }
        defer { lease.release() }
        // Another process's session (it registered since this one's ended there) is not this logout's to revoke.
        let snapshot = await tokens.holdsStoredSession() ? await tokens.snapshot() : nil
        var result = LogoutResult.nothingToRevoke
        if let refreshToken = snapshot?.refreshToken {
            do {
                try await provider.revoke(token: refreshToken, hint: .refreshToken)
                result = .revoked
            } catch let error where error.isTransient {
                let issue = TransientIssue(error)
                return (.logoutRefused(issue), .logoutRefused(issue))
            } catch {
                // A provider without revocation, or one that refuses: the local logout still happens, and says so.
                if case .unsupported = error { result = .revocationUnsupported } else {
                    result = .revocationRefused(error.errorDescription ?? "refused")
                }
                logger.log(.warning, "logout: the refresh token was not revoked (\(error.localizedDescription))")
            }
        }
        // Host mode: even an expired security token goes to the backend, whose answer (any answer) shows the device
        // is online; without it a user logout would clear the session offline (the token-lifecycle rules: logout only online).
        let hostDriven = snapshot?.refreshToken == nil
        if let backend, let securityToken = snapshot?.securityToken ?? (hostDriven ? snapshot?.storedSecurityToken : nil) {
            do {
                try await backend.deleteInstallation(securityToken: securityToken)
            } catch {
                // Host mode has no refresh token to revoke: the backend is then the one that must be reached.
                if snapshot?.refreshToken == nil, error.isTransient {
                    return (.logoutRefused(TransientIssue(error)), .logoutRefused(TransientIssue(error)))
                }
            }
        }
        // RP-initiated logout: the URL that ends the browser session at the provider, with the ID token as hint.
        // Only after a sign-in in the browser: a passwordless code or a non-native platform (no ID token) left no
        // browser session at the provider, so there is nothing to end.
        var endSession: EndSessionRequest?
        if let idToken = snapshot?.idToken, snapshot?.session?.registrationType != .passwordless {
            endSession = await provider.endSessionRequest(idTokenHint: idToken)
        }
        do {
            let ours = try await tokens.clearAll(keepingOngoingAccess: configuration.keepsOngoingAccessAfterSessionEnd)
            dpop.forgetSession(removingKey: ours)
        } catch {
            // Ended at the provider, not on the device: never a "logged out" with the tokens still stored.
            logger.log(.error, "logout: \(error.localizedDescription)")
            return (.loggedOut, .credentialsRemain(error.localizedDescription))
        }
        return (.loggedOut, .loggedOut(LoggedOut(result: result, endSession: endSession)))
    }
}
