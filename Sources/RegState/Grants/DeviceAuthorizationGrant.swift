import Foundation

/// The device authorization grant (RFC 8628): a device without a browser shows a short code, the user approves
/// elsewhere while it polls; the request, the stored record and the shared polling: `docs/Internals-Grants.md`.
struct DeviceAuthorizationGrant: Sendable {
    /// The grant type of the token requests (RFC 8628 §3.4).
    static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    let provider: OIDCClient
    let tokens: TokenService
    let clock: any RegStateClock
    let logger: any RegStateLogger
    let configuration: OIDCConfiguration
    /// This process's identifier as a poller (``PendingDeviceAuthorization/poller``).
    let pollerID: String

    /// How a poll run ended.
    enum Outcome: Sendable {
        /// The provider issued tokens: the one answer the authorization gives (its record is already removed).
        case tokens(TokenResponse)
        /// The authorization ended without tokens, with the reason.
        case failed(RegistrationFailure)
        /// The poll was cancelled (the app cancelled, or the process moved on): nothing more is sent.
        case stopped
    }

    /// The device authorization pending in the store for this issuer and client while it has not expired, or a new
    /// one: asked for, checked and stored, all under the store's lock, so that two processes never start two.
    /// `makeKey` makes the new registration's DPoP key (none when DPoP is off) only when a new one is asked for.
    func begin(makeKey: () async throws(OIDCError) -> DPoPKey?) async -> Result<PendingDeviceAuthorization, RegistrationFailure> {
        await tokens.withExclusiveAccess(orElse: { .failure(RegistrationFailure($0)) }) { await beginLocked(makeKey: makeKey) }
    }

    private func beginLocked(makeKey: () async throws(OIDCError) -> DPoPKey?) async
        -> Result<PendingDeviceAuthorization, RegistrationFailure>
    {
        await RegistrationFailure.result { () async throws(RegistrationFailure) in
            let now = clock.now()
            // A locked device refused the read: a pending authorization may be there. Nothing is asked for or
            // changed (read as none, a second authorization began beside the pending one).
            let stored = try await RegistrationFailure.catching { () async throws(StoreError) in
                try await tokens.pending(PendingDeviceAuthorization.self)
            }
            if let pending = stored {
                if !pending.hasExpired(at: now) { return pending }
                _ = try? await tokens.removePending(PendingDeviceAuthorization.self, id: pending.deviceCode)
            }
            let record = try await RegistrationFailure.catching { () async throws(OIDCError) in
                try await requestAuthorization(dpopKeyThumbprint: try await makeKey()?.thumbprint)
            }
            try await RegistrationFailure.catching { () async throws(StoreError) in
                try await tokens.savePending(record)
            }
            return record
        }
    }

    /// Polls the token endpoint for `record`'s authorization until it yields tokens, ends, expires or the task is
    /// cancelled. `proofKey` proves every poll when DPoP is on.
    func poll(from record: PendingDeviceAuthorization, proofKey: DPoPKey?) async -> Outcome {
        var known = record
        while !Task.isCancelled {
            // The token endpoint is known before a poll is reserved: discovered between the reservation and the poll
            // (a relaunched process's first poll), the clock could pass the code's expiry before the poll left.
            do {
                _ = try await provider.metadata()
            } catch {
                guard error.isTransient else {
                    await finish(known)
                    return .failed(RegistrationFailure(error))
                }
                if known.nextStep(at: clock.now(), for: pollerID) == .expired { return .failed(.codeExpired) }
                await clock.sleep(for: known.verification.interval)
                continue
            }
            let step: Reservation
            do {
                step = try await reserve(known)
            } catch {
                // No poll leaves without its reservation in the store: wait one interval, try again.
                logger.log(.warning, "device authorization: the next poll is not reserved (\(error.localizedDescription))")
                if known.nextStep(at: clock.now(), for: pollerID) == .expired { return .failed(.codeExpired) }
                await clock.sleep(for: known.verification.interval)
                continue
            }
            switch step {
            case .gone:
                return .failed(.noPendingLogin)
            case .expired:
                return .failed(.codeExpired)
            case .wait(let seconds, let record):
                known = record
                await clock.sleep(for: seconds)
            case .poll(let record):
                known = record
                switch await pollOnce(record.deviceCode, proofKey: proofKey) {
                case .tokens(let response):
                    await finish(record)
                    return .tokens(response)
                case .pending:
                    known = await update(known) { record, now in record.answered(at: now) }
                case .slowDown:
                    known = await update(known) { record, now in record.slowDown(at: now) }
                case .transient(let retryAfter):
                    known = await update(known) { record, now in
                        record.transientFailure(at: now, retryAfter: retryAfter)
                    }
                case .ended(let failure):
                    await finish(record)
                    return .failed(failure)
                }
            }
        }
        return .stopped
    }

    /// Removes the stored authorization with `record`'s device code (it yielded tokens or ended).
    func finish(_ record: PendingDeviceAuthorization) async {
        await tokens.withdrawPending(PendingDeviceAuthorization.self, id: record.deviceCode, logger: logger)
    }

    /// Removes the stored authorization whose user code is `userCode` (the app cancelled it, or the attempt ended).
    func discard(userCode: String) async {
        guard let stored = try? await tokens.pending(PendingDeviceAuthorization.self), stored.verification.userCode == userCode
        else { return }
        await tokens.withdrawPending(PendingDeviceAuthorization.self, id: stored.deviceCode, logger: logger)
    }
}

extension DeviceAuthorizationGrant {
    /// The grant over `runner`'s provider client, token service and clock.
    init(runner: EffectRunner) {
        self.init(provider: runner.provider, tokens: runner.tokens, clock: runner.dependencies.clock, logger: runner.logger,
                  configuration: runner.configuration.oidc, pollerID: runner.devicePollerID)
    }

    /// Polls the stored device authorization until it yields tokens (checked and stored provisionally by `runner`:
    /// **G**) or ends (**F**); `nil` when the poll was cancelled or the user moved on (`stillWanted`).
    func pollStored(with runner: EffectRunner, stillWanted: @Sendable () async -> Bool) async -> MachineEvent? {
        do throws(RegistrationFailure) {
            // A locked device refused the read: a recoverable storage failure, not "none pending".
            let stored = try await RegistrationFailure.catching { () async throws(StoreError) in
                try await tokens.pending(PendingDeviceAuthorization.self)
            }
            guard let record = stored else { throw .noPendingLogin }
            let key = try LoginTokens(runner: runner).registrationKey()
            // The key the tokens are to be bound to must still be the installation's registration key.
            if let bound = record.dpopKeyThumbprint, key?.thumbprint != bound { throw .pendingLoginSuperseded }
            switch await poll(from: record, proofKey: key) {
            case .stopped:
                return nil
            case .failed(let failure):
                throw failure
            case .tokens(let response):
                return await LoginTokens(runner: runner).authenticate(with: response, nonce: nil, type: .social,
                                                                      proofKey: key, stillWanted: stillWanted)
            }
        } catch {
            return .registrationFailed(error)
        }
    }
}
