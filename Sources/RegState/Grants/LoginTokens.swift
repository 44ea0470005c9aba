import Foundation

/// What every login grant does with its tokens: the new registration's DPoP key, the ID token validated and the tokens
/// stored provisionally (only a validated identity reaches **G**), and their confirmation at the backend.
struct LoginTokens: Sendable {
    /// The provider client, token service, DPoP context and backend the tokens go through.
    let runner: EffectRunner

    /// A new registration's DPoP key (RFC 9449): a fresh one replacing the old when DPoP is on and the provider offers
    /// ES256 proofs, else none (the old one removed); ``DPoPError/notOffered`` when DPoP is required.
    func keyForNewRegistration() async throws(OIDCError) -> DPoPKey? {
        let offered = runner.dpop.mode == .off ? false : try await runner.provider.metadata().offersDPoP
        do {
            let key = try runner.dpop.keyForNewRegistration(offered: offered)
            await runner.tokens.madeRegistrationKey(key?.thumbprint)
            return key
        } catch {
            throw .dpop(error)
        }
    }

    /// The key the registration in progress binds its tokens to, if any.
    func registrationKey() throws(RegistrationFailure) -> DPoPKey? {
        do {
            return try runner.dpop.registrationKey()
        } catch {
            throw .dpop(error)
        }
    }

    /// The ID token of `response`, validated (and that it meets `requirement`, what the login asked for).
    func verify(_ response: TokenResponse, nonce: String?, requirement: AuthenticationRequirement = .none) async
        throws(RegistrationFailure) -> VerifiedIDToken
    {
        guard let idToken = response.idToken else { throw .malformedResponse("the token response has no id_token") }
        return try await RegistrationFailure.catching { () async throws(OIDCError) in
            try await runner.provider.validateIDToken(idToken, expectedNonce: nonce, requirement: requirement,
                                                      freshFromTokenEndpoint: true)
        }
    }

    /// Validates the ID token (``verify(_:nonce:requirement:)``), then stores the tokens as provisional: only a
    /// validated identity reaches G.
    func authenticate(with response: TokenResponse, nonce: String?, requirement: AuthenticationRequirement = .none,
                      type: RegistrationType, proofKey: DPoPKey?,
                      stillWanted: @Sendable () async -> Bool) async -> MachineEvent? {
        let verified: VerifiedIDToken
        do {
            verified = try await verify(response, nonce: nonce, requirement: requirement)
        } catch {
            return .registrationFailed(error)
        }
        guard await stillWanted() else { return nil }
        // The key and the tokens are two store values: both are written under the store's lock, so that another
        // process that finds its key replaced (the record's `dpop_jkt` names another) reads the new pair under it.
        return await underStoreLock { () async -> MachineEvent in
            let key: DPoPKey?
            do throws(DPoPError) {
                // The registration's key becomes the session's now, with its tokens, not when it started.
                key = try runner.dpop.promote(proofKey)
            } catch {
                return .registrationFailed(.dpop(error))
            }
            do throws(StoreError) {
                return .authenticated(try await runner.tokens.storeProvisional(
                    response, registrationType: type, profile: verified.profile, dpopThumbprint: key?.thumbprint))
            } catch {
                return .registrationFailed(RegistrationFailure(error))
            }
        }
    }

    /// Confirm: register the installation and the profile with the backend, then confirm the tokens. At the
    /// backend's device limit the provisional tokens go, but their ID token (in memory only) still lets the user list
    /// and remove a device (``RegStateService/registeredDevices()``): it comes back beside the failure.
    func confirmRegistration() async -> (event: MachineEvent, deviceListIDToken: String?) {
        let confirmed = await underStoreLock(confirmLocked)
        guard confirmed == .registrationFailed(.tooManyRegisteredDevices) else { return (confirmed, nil) }
        return (confirmed, await runner.tokens.snapshot()?.idToken)
    }

    /// `body`'s event, under the store's lock; a lock not taken fails the registration.
    private func underStoreLock(_ body: () async -> MachineEvent) async -> MachineEvent {
        await runner.tokens.withExclusiveAccess(orElse: { .registrationFailed(RegistrationFailure($0)) }, body)
    }

    private func confirmLocked() async -> MachineEvent {
        do throws(StoreError) {
            guard let backend = runner.backend else { return confirmed(try await runner.tokens.confirm()) }
            guard let snapshot = await runner.tokens.snapshot(), let idToken = snapshot.idToken, let stored = snapshot.session else {
                return .registrationFailed(.noPendingLogin)
            }
            let installation = try await runner.installation()
            let grant: SecurityTokenGrant
            let grantReceived: Date
            do {
                grant = try await backend.securityToken(idToken: idToken, installation: installation)
                grantReceived = runner.dependencies.clock.now()
                try await backend.updateProfile(stored.profile, registrationType: stored.registrationType,
                                                securityToken: grant.securityToken)
            } catch {
                return .registrationFailed(RegistrationFailure(error))
            }
            return confirmed(try await runner.tokens.confirm(securityToken: grant.securityToken, securityTokenLifetime: grant.expiresIn,
                                                      securityTokenReceivedAt: grantReceived))
        } catch {
            return .registrationFailed(RegistrationFailure(error))
        }
    }

    /// The event of a confirmation: confirmed, or no provisional tokens were left to confirm.
    private func confirmed(_ session: StoredSession?) -> MachineEvent {
        session.map(MachineEvent.registrationConfirmed) ?? .registrationFailed(.noPendingLogin)
    }
}
