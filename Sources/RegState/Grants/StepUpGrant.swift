import Foundation

/// A step-up login (OpenID Connect Core §3.1.2.1 `max_age` / `acr_values`, asked for by an API's RFC 9470 challenge):
/// the signed-in user signs in again, more recently or more strongly, and the new tokens replace the session's.
///
/// One unit: the authorization request and its pending record in the secure store (it survives a kill; a redirect
/// that is not its own is refused and leaves it waiting), the code exchange, the checks of the answer — the ID token's
/// every check with the requirement, then the same issuer and subject as the session (another user is refused and
/// the session is left byte for byte as it was) — and the replacement of the session's tokens in one write under the
/// store's lock. The session stays active and usable while the step-up is pending; cancelling removes only the
/// pending record.
struct StepUpGrant: Sendable {
    let provider: OIDCClient
    let tokens: TokenService
    let dpop: DPoPContext
    let clock: any RegStateClock
    let logger: any RegStateLogger
    let configuration: RegStateConfiguration

    /// A new step-up for the stored session (in place of any pending one): the authorization URL to open.
    func begin(_ requirement: AuthenticationRequirement) async -> Result<PendingStepUp, RegistrationFailure> {
        let session: StoredCredentials
        let subject: String
        do {
            guard let stored = try await tokens.readRecord(), stored.stage == .confirmed, let profile = stored.profile,
                  stored.registrationType != .hostSSO
            else { return .failure(.unsupported("a step-up needs a signed-in session that RegState renews")) }
            session = stored
            subject = profile.subject
        } catch {
            return .failure(RegistrationFailure(error))
        }
        let record: PendingStepUp
        do {
            let key = try boundKey(session.dpopThumbprint)
            let request = try await provider.makeAuthorizationRequest(dpopKey: key, prompt: nil, requirement: requirement)
            let binding = CredentialBinding(configuration.oidc)
            record = PendingStepUp(request: request, requirement: requirement, issuer: binding.issuer,
                                   clientID: binding.clientID, subject: subject, sessionID: session.sessionID,
                                   dpopKeyThumbprint: key?.thumbprint)
        } catch {
            return .failure(RegistrationFailure(error))
        }
        do {
            try await tokens.withExclusiveAccess { () async throws(StoreError) in try await tokens.savePending(record) }
        } catch {
            return .failure(RegistrationFailure(error))
        }
        return .success(record)
    }

    /// Finishes the pending step-up with its redirect: the new tokens, stored in place of the session's.
    func complete(_ callback: URL) async -> Result<StoredCredentials, RegistrationFailure> {
        let pending: PendingStepUp
        do {
            guard let stored = try await tokens.pending(PendingStepUp.self) else { return .failure(.noPendingLogin) }
            pending = stored
        } catch {
            return .failure(RegistrationFailure(error))
        }
        // A redirect that is not this login's is refused before anything is taken: the step-up waits for its own.
        let code: String
        do {
            code = try await provider.authorizationCode(from: callback, for: pending.request)
        } catch {
            let failure = RegistrationFailure(error)
            if case .authorizationError = error { await discard(state: pending.request.state) }
            return .failure(failure)
        }
        // Taken under the lock: the same redirect twice, or in two processes, finds nothing the second time.
        do {
            let taken = try await tokens.withExclusiveAccess { () async throws(StoreError) -> PendingStepUp? in
                try await tokens.removePending(PendingStepUp.self, id: pending.request.state)
            }
            guard taken != nil else { return .failure(.noPendingLogin) }
        } catch {
            return .failure(RegistrationFailure(error))
        }
        if clock.now().timeIntervalSince(pending.createdAt) > configuration.pendingLoginLifetime {
            return .failure(.pendingLoginExpired)
        }
        let response: TokenResponse
        let verified: VerifiedIDToken
        do {
            let key = try boundKey(pending.dpopKeyThumbprint)
            if pending.dpopKeyThumbprint != nil, key == nil { return .failure(.pendingLoginSuperseded) }
            response = try await provider.exchangeCode(code, for: pending.request, proofKey: key)
            guard let idToken = response.idToken else {
                return .failure(.malformedResponse("the token response has no id_token"))
            }
            verified = try await provider.validateIDToken(idToken, expectedNonce: pending.request.nonce,
                                                          requirement: pending.requirement, freshFromTokenEndpoint: true)
        } catch {
            return .failure(RegistrationFailure(error))
        }
        guard verified.profile.issuer == pending.issuer, verified.profile.subject == pending.subject else {
            logger.log(.warning, "step-up: the new sign-in is another user's; the session was left as it was")
            return .failure(.anotherUser)
        }
        return await replace(pending, with: response, profile: verified.profile)
    }

    /// The session's tokens replaced by `response`'s in one write, under the store's lock, only while the record is
    /// still the session the step-up began for.
    private func replace(_ pending: PendingStepUp, with response: TokenResponse, profile: Profile) async
        -> Result<StoredCredentials, RegistrationFailure>
    {
        do {
            return try await tokens.withExclusiveAccess { () async throws(StoreError) -> Result<StoredCredentials, RegistrationFailure> in
                guard let record = try await tokens.readRecord(), record.stage == .confirmed,
                      record.sessionID == pending.sessionID, record.profile?.subject == pending.subject,
                      let stored = try await tokens.storeRenewed(response, profile: profile, over: record)
                else { return .failure(.pendingLoginSuperseded) }
                return .success(stored)
            }
        } catch {
            return .failure(RegistrationFailure(error))
        }
    }

    /// Removes the pending step-up (`state`'s, or whichever when `nil`); the session is untouched.
    func discard(state: String? = nil) async {
        await tokens.withdrawPending(PendingStepUp.self, id: state, logger: logger)
    }

    /// The session's DPoP key when its tokens are bound (`thumbprint`), `nil` for bearer tokens.
    private func boundKey(_ thumbprint: String?) throws(OIDCError) -> DPoPKey? {
        guard thumbprint != nil else { return nil }
        do {
            return try dpop.boundKey(matching: thumbprint)
        } catch {
            throw .dpop(error)
        }
    }
}
