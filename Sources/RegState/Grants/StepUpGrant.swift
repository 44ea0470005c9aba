import Foundation

/// A step-up login (OIDC Core §3.1.2.1 `max_age` / `acr_values`, asked for by an RFC 9470 challenge): the same user
/// signs in again and the new tokens replace the session's in one write; see `docs/Internals-Grants.md`.
struct StepUpGrant: Sendable {
    /// The provider client, token service, DPoP context and clock the step-up goes through.
    let runner: EffectRunner
    private var tokens: TokenService { runner.tokens }
    private var redemption: AuthorizationCodeRedemption<PendingStepUp> { AuthorizationCodeRedemption(runner: runner) }

    /// A new step-up for the stored session (in place of any pending one): the authorization URL to open.
    func begin(_ requirement: AuthenticationRequirement) async -> Result<PendingStepUp, RegistrationFailure> {
        await RegistrationFailure.result { () async throws(RegistrationFailure) in
            let stored = try await RegistrationFailure.catching { () async throws(StoreError) in
                try await tokens.readRecord()
            }
            guard let session = stored, session.stage == .confirmed, let profile = session.profile,
                  session.registrationType != .hostSSO
            else { throw .unsupported("a step-up needs a signed-in session that RegState renews") }
            let key = try boundKey(session.dpopThumbprint)
            let request = try await RegistrationFailure.catching { () async throws(OIDCError) in
                try await runner.provider.makeAuthorizationRequest(dpopKey: key, prompt: nil, requirement: requirement)
            }
            let binding = CredentialBinding(runner.configuration.oidc)
            let record = PendingStepUp(request: request, requirement: requirement, issuer: binding.issuer,
                                       clientID: binding.clientID, subject: profile.subject,
                                       sessionID: session.sessionID, dpopKeyThumbprint: key?.thumbprint)
            try await RegistrationFailure.catching { () async throws(StoreError) in
                try await tokens.withExclusiveAccess { () async throws(StoreError) in
                    try await tokens.savePending(record)
                }
            }
            return record
        }
    }

    /// Finishes the pending step-up with its redirect: the new tokens, stored in place of the session's.
    func complete(_ callback: URL) async -> Result<StoredCredentials, RegistrationFailure> {
        await RegistrationFailure.result { () async throws(RegistrationFailure) in
            guard let pending = try await redemption.stored() else { throw .noPendingLogin }
            // A redirect that is not this login's is refused before anything is taken: the step-up waits for its own;
            // the provider's error answer ends it.
            do throws(RegistrationFailure) {
                _ = try await runner.provider.authorizationCode(from: callback, for: pending.request)
            } catch {
                if case .authorizationDenied = error { await discard(state: pending.request.state) }
                throw error
            }
            guard try await redemption.take(id: pending.request.state).taken != nil else { throw .noPendingLogin }
            let key = { () throws(RegistrationFailure) in try boundKey(pending.dpopKeyThumbprint) }
            let (response, _) = try await redemption.exchange(callback, for: pending, key: key)
            let verified = try await LoginTokens(runner: runner).verify(response, nonce: pending.request.nonce,
                                                                        requirement: pending.requirement)
            guard verified.profile.issuer == pending.issuer, verified.profile.subject == pending.subject else {
                runner.logger.log(.warning, "step-up: the new sign-in is another user's; the session was left as it was")
                throw .anotherUser
            }
            return try await replace(pending, with: response, profile: verified.profile)
        }
    }

    /// The session's tokens replaced by `response`'s in one write, under the store's lock, only while the record is
    /// still the session the step-up began for.
    private func replace(_ pending: PendingStepUp, with response: TokenResponse, profile: Profile) async
        throws(RegistrationFailure) -> StoredCredentials
    {
        let stored = try await RegistrationFailure.catching { () async throws(StoreError) in
            try await tokens.withExclusiveAccess { () async throws(StoreError) -> StoredCredentials? in
                guard let record = try await tokens.readRecord(), record.stage == .confirmed,
                      record.sessionID == pending.sessionID, record.profile?.subject == pending.subject
                else { return nil }
                return try await tokens.storeRenewed(response, profile: profile, over: record)
            }
        }
        guard let stored else { throw .pendingLoginSuperseded }
        return stored
    }

    /// Removes the pending step-up (`state`'s, or whichever when `nil`); the session is untouched.
    func discard(state: String? = nil) async {
        await tokens.withdrawPending(PendingStepUp.self, id: state, logger: runner.logger)
    }

    /// The session's DPoP key when its tokens are bound (`thumbprint`), `nil` for bearer tokens.
    private func boundKey(_ thumbprint: String?) throws(RegistrationFailure) -> DPoPKey? {
        guard thumbprint != nil else { return nil }
        do {
            return try runner.dpop.boundKey(matching: thumbprint)
        } catch {
            throw .dpop(error)
        }
    }
}
