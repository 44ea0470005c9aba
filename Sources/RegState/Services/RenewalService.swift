import Foundation

/// Renews the access token with the refresh-token grant (seed 002's RenewalService), one flight at a time.
///
/// It owns the whole single flight: who asks for a renewal (the first caller for a stale token, so many requests
/// failing with one token make one journaled request, the one "token expired" notice), who runs the grant, who joins
/// it, and who finds that someone already renewed the token. Concurrent callers share one grant: with rotating
/// refresh tokens a second, parallel grant would present a refresh token the first one just retired, and the
/// provider's reuse detection would revoke the whole session. The rotated refresh token is persisted (in the same
/// atomic write as the new access token) before any caller gets a result.
package actor RenewalService {
    private let tokens: TokenService
    private let provider: any TokenRefreshing
    private let clock: any RegStateClock
    /// The DPoP key store the grant signs its proof with when the stored tokens are bound; `nil`: never.
    private let dpop: DPoPContext?
    /// The grant in progress, shared by every caller that arrives while it runs.
    private var inFlight: Task<RenewalOutcome.Result, Never>?
    /// The last stale access token a renewal was requested for.
    private var requestedFor: String?

    /// Creates the service.
    package init(tokens: TokenService, provider: any TokenRefreshing, clock: any RegStateClock,
                 dpop: DPoPContext? = nil) {
        self.tokens = tokens
        self.provider = provider
        self.clock = clock
        self.dpop = dpop
    }

    /// What a caller that found `staleAccessToken` expired or rejected should do: nothing when someone already
    /// renewed it; journal a renewal request when it is the first caller for this token (or forces one with `nil`),
    /// so that many requests failing with one token make one journaled request; otherwise join the renewal asked for.
    package func admit(replacing staleAccessToken: String?) async -> RenewalAdmission {
        if await renewedElsewhere(staleAccessToken) != nil { return .alreadyRenewed }
        if let staleAccessToken, requestedFor == staleAccessToken { return .join }
        requestedFor = staleAccessToken
        return .request
    }

    /// Renews the stored credentials, unless someone already replaced `staleAccessToken`.
    ///
    /// The caller that starts a grant gets ``RenewalOutcome/ran(_:)`` and is the one that applies its result;
    /// callers arriving while it runs get ``RenewalOutcome/joined(_:)``. When the stored access token is no longer
    /// `staleAccessToken` and is usable, the answer is ``RenewalOutcome/alreadyRenewed(_:)`` and no request is made.
    ///
    /// - Parameter staleAccessToken: the access token the caller found expired or rejected; `nil` forces a renewal.
    package func renew(replacing staleAccessToken: String?) async -> RenewalOutcome {
        if let inFlight { return .joined(await inFlight.value) }
        if let session = await renewedElsewhere(staleAccessToken) { return .alreadyRenewed(session) }
        // Checked again: another caller may have started a grant while this one awaited the token service.
        if let inFlight { return .joined(await inFlight.value) }
        let task = Task { await self.grant(replacing: staleAccessToken) }
        inFlight = task
        let result = await task.value
        inFlight = nil
        return .ran(result)
    }

    /// The stored session, when the stored access token is no longer `staleAccessToken` and is usable: someone
    /// already renewed it. One read of the record.
    private func renewedElsewhere(_ staleAccessToken: String?) async -> StoredSession? {
        guard let staleAccessToken, let current = await tokens.snapshot(), current.accessToken != staleAccessToken,
              current.isUsable else { return nil }
        return current.session
    }

    /// One grant, holding the store's lock from the read of the refresh token to the write of its successor, so
    /// processes sharing the store renew one token once. After taking the lock the record is read again: when
    /// another process already replaced `staleAccessToken`, its result is used and nothing is sent.
    private func grant(replacing staleAccessToken: String?) async -> RenewalOutcome.Result {
        let lease: any StoreLease
        do {
            lease = try await tokens.exclusiveAccess()
        } catch {
            return .init(.failure(.storage(error.errorDescription ?? "the store is busy")), stored: await tokens.storedSession())
        }
        defer { lease.release() }
        // Re-read under the lock: a token another process stored while this one waited is fresh from the provider,
        // so it is used even inside the early-renewal grace period, as long as it has not actually expired.
        if let staleAccessToken, let current = await tokens.snapshot(), current.accessToken != staleAccessToken,
           current.expiresAt.map({ $0 > clock.now() }) ?? true, let session = current.session {
            return .init(.success(session), stored: session)
        }
        return await grantLocked()
    }

    private func grantLocked() async -> RenewalOutcome.Result {
        // A store that cannot be read now (a locked device) is a recoverable storage failure, not "no refresh
        // token": the session is kept and the renewal is tried again later.
        let snapshot: TokenSnapshot?
        do {
            snapshot = try await tokens.readSnapshot()
        } catch {
            return .init(.failure(.storage(error.errorDescription ?? "unreadable")), stored: nil)
        }
        let stored = snapshot?.session
        guard let refreshToken = snapshot?.refreshToken else { return .init(.failure(.noRefreshToken), stored: stored) }
        // A bound refresh token is worthless without its key (RFC 9449 §5): an unreadable key ends the session with
        // an explained reason instead of a loop of refused grants.
        var proofKey: DPoPKey?
        if snapshot?.isDPoPBound == true {
            do throws(DPoPError) {
                guard let dpop else { throw .keyRecordUnreadable(reason: "DPoP is not configured") }
                // Under the store's lock, where a registration writes its key and tokens: a key other than the one
                // the record names is not this refresh token's.
                guard let key = try dpop.boundKey(matching: snapshot?.dpopThumbprint) else {
                    throw .keyRecordUnreadable(reason: "the key record holds another key than the tokens'")
                }
                proofKey = key
            } catch .storeFailed(let reason) {
                // The key record could not be read now (a locked device): the key may be fine, keep the session.
                return .init(.failure(.storage(reason)), stored: stored)
            } catch {
                return .init(.failure(.dpopKeyUnavailable(reason: Self.keyReason(error))), stored: stored)
            }
        }
        // Journaled in the record before the grant leaves: a mark already there is an interrupted renewal's.
        let interrupted: Bool
        do {
            interrupted = try await tokens.markRenewalStarted(with: refreshToken)
        } catch {
            let reason = (error as? any LocalizedError)?.errorDescription ?? "write failed"
            return .init(.failure(.storage(reason)), stored: stored)
        }
        let response: TokenResponse
        do {
            response = try await provider.refreshTokens(using: refreshToken, proofKey: proofKey)
        } catch {
            // A refusal of a refresh token that someone else (a process not using the lock) has meanwhile replaced
            // is not a logout: go on with the stored tokens.
            if error.isRefusal, let current = await tokens.snapshot(), current.refreshToken != refreshToken,
               let session = current.session {
                return .init(.success(session), stored: session)
            }
            if interrupted, error.isRefusal {
                return .init(.failure(.interruptedRenewalRefused(reason: error.refusalReason)), stored: stored)
            }
            return .init(.failure(classify(error, stored: stored)), stored: stored)
        }
        var profile: Profile?
        if let idToken = response.idToken {
            // OIDC Core 12.2 + 3.1.3.7: every check of registration, and iss/sub (and nonce) equal to the original.
            // A refresh answer that fails stores nothing and keeps the session: the provider misbehaved once.
            guard let original = snapshot?.idToken else {
                try? await tokens.clearRenewalMark(with: refreshToken)
                return .init(.failure(.invalidRefreshedIDToken(reason: "no original ID token to compare with")),
                              stored: stored)
            }
            do {
                profile = try await provider.validateRefreshedIDToken(idToken, originalIDToken: original).profile
            } catch {
                if case .invalidIDToken(let reason) = error {
                    try? await tokens.clearRenewalMark(with: refreshToken)
                    return .init(.failure(.invalidRefreshedIDToken(reason: Self.checkName(reason))), stored: stored)
                }
                return .init(.failure(classify(error, stored: stored)), stored: stored)
            }
        }
        do {
            guard let renewed = try await tokens.storeRenewed(response, profile: profile, replacing: refreshToken) else {
                return .init(.failure(.storage("the session changed during renewal")), stored: await tokens.storedSession())
            }
            return .init(.success(renewed), stored: renewed)
        } catch {
            let reason = (error as? any LocalizedError)?.errorDescription ?? "write failed"
            return .init(.failure(.storage(reason)), stored: stored)
        }
    }

    private static func keyReason(_ error: DPoPError) -> String {
        switch error {
        case .keyRecordUnreadable(let reason): reason
        case .keyRecordWrongCurve(let curve): "the key is on curve \(curve), not P-256"
        default: error.errorDescription ?? "unusable"
        }
    }

    /// The name of the check an ID token failed, for the journal: the ``IDTokenError`` case, never its values.
    static func checkName(_ error: IDTokenError) -> String {
        switch error {
        case .malformed: "malformed"
        case .invalidJWT: "invalidJWT"
        case .unsupportedAlgorithm: "unsupportedAlgorithm"
        case .unknownKeyID: "unknownKeyID"
        case .keyDoesNotFitAlgorithm: "keyDoesNotFitAlgorithm"
        case .invalidSignature: "invalidSignature"
        case .issuerMismatch: "issuerMismatch"
        case .audienceMismatch: "audienceMismatch"
        case .untrustedAudience: "untrustedAudience"
        case .authorizedPartyMismatch: "authorizedPartyMismatch"
        case .expired: "expired"
        case .issuedInFuture: "issuedInFuture"
        case .notYetValid: "notYetValid"
        case .invalidTimeClaim: "invalidTimeClaim"
        case .invalidSubject: "invalidSubject"
        case .tooOld: "tooOld"
        case .nonceMismatch: "nonceMismatch"
        case .refreshedIdentityMismatch: "refreshedIdentityMismatch"
        case .unsignedTokensAdvertised: "unsignedTokensAdvertised"
        }
    }

    /// Seed 000's rules: only an explicit refusal is final; a transient failure is final only when every token,
    /// the refresh token included, has expired.
    private func classify(_ error: OIDCError, stored: StoredSession?) -> RenewalFailure {
        // The token-endpoint answer rule is OIDCError.isRefusal's; the reason journaled is the provider's code or
        // what was unexplained about its answer.
        if error.isRefusal { return .denied(reason: error.refusalReason) }
        if let refreshExpiresAt = stored?.refreshExpiresAt, refreshExpiresAt <= clock.now() {
            return .credentialsExhausted
        }
        switch error {
        case .transport, .notTheProvider: return .transient(.noInternet)
        default: break
        }
        return .transient(.ssoUnspecifiedIssue)
    }
}

/// What ``RenewalService/admit(replacing:)`` tells a caller to do.
package enum RenewalAdmission: Sendable, Equatable {
    /// Journal a renewal request; its effect runs (or joins) the grant.
    case request
    /// A request for this token is already journaled: join its renewal.
    case join
    /// Someone already renewed the token: nothing to do.
    case alreadyRenewed
}

/// What ``RenewalService/renew(replacing:)`` answers: the one outcome type of a renewal request.
package enum RenewalOutcome: Sendable, Equatable {
    /// The result of one grant: the new session summary or why renewal failed, and what is stored afterwards.
    package struct Result: Sendable, Equatable {
        /// The new session summary, or why renewal failed.
        package var outcome: Swift.Result<StoredSession, RenewalFailure>
        /// What is stored after the attempt.
        package var stored: StoredSession?

        init(_ outcome: Swift.Result<StoredSession, RenewalFailure>, stored: StoredSession?) {
            self.outcome = outcome
            self.stored = stored
        }
    }

    /// This call ran the grant: it, and no other caller, applies the result.
    case ran(Result)
    /// This call joined a grant another caller ran (and applies).
    case joined(Result)
    /// Another flight already replaced the stale token; no request was made.
    case alreadyRenewed(StoredSession)

    /// The event that applies the result, for the caller that ran the grant; `nil` for everyone else.
    package var event: MachineEvent? {
        guard case .ran(let result) = self else { return nil }
        switch result.outcome {
        case .success(let stored): return .renewalSucceeded(stored)
        case .failure(let failure): return .renewalFailed(failure, stored: result.stored)
        }
    }

    /// The event the ``Effect/renew(replacing:)`` effect applies: ``event`` when it ran the grant, and the stored
    /// session when another flight (another process sharing the store, say) already renewed the token — nobody else
    /// will settle the machine that asked, so without it a launch would end unsettled.
    package var effectEvent: MachineEvent? {
        if case .alreadyRenewed(let session) = self { return .renewalSucceeded(session) }
        return event
    }

    /// Why renewal failed, when it did.
    package var failure: RenewalFailure? {
        switch self {
        case .ran(let result), .joined(let result):
            if case .failure(let failure) = result.outcome { return failure }
            return nil
        case .alreadyRenewed:
            return nil
        }
    }
}

/// Something that can run the refresh-token grant: the identity provider seam ``RenewalService`` depends on.
package protocol TokenRefreshing: Sendable {
    /// Exchanges `refreshToken` for new tokens, with a DPoP proof signed by `proofKey` when the token is bound.
    ///
    /// - Throws: ``OIDCError``; ``OIDCError/isRefusal`` marks an explicit denial.
    func refreshTokens(using refreshToken: String, proofKey: DPoPKey?) async throws(OIDCError) -> TokenResponse
    /// Validates the ID token of a refresh answer against the session's original (OIDC Core 12.2 and 3.1.3.7).
    ///
    /// - Throws: ``OIDCError/invalidIDToken(_:)`` when any check fails.
    func validateRefreshedIDToken(_ idToken: String, originalIDToken: String) async throws(OIDCError)
        -> VerifiedIDToken
}

extension OIDCClient: TokenRefreshing {
    /// The refresh-token grant at the discovered token endpoint.
    package func refreshTokens(using refreshToken: String, proofKey: DPoPKey?) async throws(OIDCError)
        -> TokenResponse
    {
        try await refresh(refreshToken: refreshToken, proofKey: proofKey)
    }
}
