import Foundation

/// The refresh-token grant's I/O under the store's lock: read the record, decide (another process's token, a hold),
/// send, store the rotated token before anyone gets it; who renews is the ``FlightMachine``'s: a parallel grant
/// would present a retired refresh token and reuse detection would revoke the session (`docs/Internals-Grants.md`).
package struct RefreshTokenGrant: Sendable {
    private let tokens: TokenService
    private let provider: OIDCClient
    private let clock: any RegStateClock
    /// The DPoP key store the grant signs its proof with when the stored tokens are bound; `nil`: never.
    private let dpop: DPoPContext?

    /// Creates the service.
    package init(tokens: TokenService, provider: OIDCClient, clock: any RegStateClock,
                 dpop: DPoPContext? = nil) {
        self.tokens = tokens
        self.provider = provider
        self.clock = clock
        self.dpop = dpop
    }

    /// The credential of `snapshot` when it is usable and replaces `staleAccessToken` (someone already renewed it),
    /// else `nil`.
    func replacement(of staleAccessToken: String?, in snapshot: TokenSnapshot?) -> AccessCredential?? {
        guard let staleAccessToken, let snapshot, snapshot.accessToken != staleAccessToken, snapshot.isUsable else {
            return nil
        }
        return .some(credential(from: snapshot.record))
    }

    /// One grant, holding the store's lock from the read of the refresh token to the write of its successor, so
    /// processes sharing the store renew one token once. `forRejection`: a server rejected `staleAccessToken` (stored
    /// with a ``RejectionHold``); `lastCut`: when this process last cut a transient hold short. Returns the outcome,
    /// its credential and whether it cut one (why it succeeds when another flight renewed: `docs/Internals-Grants.md`).
    package func grant(replacing staleAccessToken: String?, forRejection: Bool, lastCut: Date?) async
        -> (event: MachineEvent, credential: AccessCredential?, cut: Bool)
    {
        var cut = false
        let granted = await tokens.withExclusiveAccess(orElse: { error in
            Self.failed(.storage(error.errorDescription ?? "the store is busy"), stored: await tokens.storedSession())
        }, { await grantUnderLock(replacing: staleAccessToken, forRejection: forRejection, lastCut: lastCut, cut: &cut) })
        return (granted.event, granted.credential, cut)
    }

    /// What a grant did: the event that applies it, and the renewed credential.
    private typealias Granted = (event: MachineEvent, credential: AccessCredential?)

    private static func failed(_ failure: RenewalFailure, stored: StoredSession?) -> Granted {
        (.renewalFailed(failure, stored: stored), nil)
    }

    private func grantUnderLock(replacing staleAccessToken: String?, forRejection: Bool, lastCut: Date?,
                                cut: inout Bool) async -> Granted {
        // A store that cannot be read now (a locked device) is a recoverable storage failure, not "no refresh
        // token": the session is kept and the renewal is tried again later.
        let record: StoredCredentials?
        do {
            record = try await tokens.readRecord()
        } catch {
            return Self.failed(.storage(error.errorDescription ?? "unreadable"), stored: nil)
        }
        // Another session (a process registered anew since this one's session ended there) is not this one's to
        // renew: this session is gone.
        if let record, !(await tokens.owned.holds(record)) {
            return Self.failed(.noRefreshToken, stored: nil)
        }
        // A token another process stored while this one waited is fresh from the provider, so it is used even inside
        // the early-renewal grace period, as long as it has not actually expired.
        if let staleAccessToken, let record, record.accessToken != staleAccessToken,
           record.expiresAt.map({ $0 > clock.now() }) ?? true, let session = record.summary {
            return (.renewalSucceeded(session), await tokens.isUsable(record) ? credential(from: record) : nil)
        }
        // A transient failure (here or in another process, this launch or an earlier one) holds every grant until its
        // backoff has passed: nothing is sent. A forced renewal (`nil`: the user's action or the host's connectivity
        // signal) cuts a hold short, once.
        switch tokens.holdPolicy.decide(record?.accessTokenBackoff, at: clock.now(),
                                        cutShort: staleAccessToken == nil, lastCut: lastCut) {
        case .held:
            return Self.failed(.transient(record?.accessTokenBackoffIssue ?? .ssoUnspecifiedIssue),
                               stored: record?.summary)
        case .cutShort:
            cut = true
        case .attempt:
            break
        }
        // A token still usable whose rejection is held (a caller, here or in another process, found it, renewed for a
        // rejection, rejected again, and stored the hold after this caller read the record): no grant before the
        // hold has passed, as this caller would have decided had it read the hold.
        if let staleAccessToken, let record, record.accessToken == staleAccessToken,
           record.accessTokenHold.map({ $0.clamped(at: clock.now()).holds(at: clock.now()) }) == true,
           await tokens.isUsable(record),
           let session = record.summary {
            return (.renewalSucceeded(session), credential(from: record))
        }
        return await grantLocked(record, forRejection: forRejection)
    }

    /// The failure `error` is for the renewal (``classify(_:stored:presented:)``); a transient one stores the next
    /// backoff hold (with the provider's `Retry-After`) under the store's lock, which the grant holds.
    private func failure(_ error: OIDCError, stored: StoredSession?, presented: Bool = true) async -> RenewalFailure {
        let failure = classify(error, stored: stored, presented: presented)
        if case .transient(let issue) = failure {
            // The hold is a courtesy to the provider: a store that cannot take it now leaves the next call free.
            try? await tokens.recordTransientFailure(.accessToken, issue: issue, retryAfter: error.retryAfter,
                                                     underLock: true)
        }
        return failure
    }

    private func grantLocked(_ record: StoredCredentials?, forRejection: Bool) async -> Granted {
        let stored = record?.summary
        guard let record, let refreshToken = record.refreshToken else { return Self.failed(.noRefreshToken, stored: stored) }
        // A bound refresh token is worthless without its key (RFC 9449 §5): an unreadable key ends the session with
        // an explained reason instead of a loop of refused grants.
        var proofKey: DPoPKey?
        if record.isDPoPBound {
            do throws(DPoPError) {
                guard let dpop else { throw .keyRecordUnreadable(reason: "DPoP is not configured") }
                // Under the store's lock, where a registration writes its key and tokens: a key other than the one
                // the record names is not this refresh token's.
                guard let key = try dpop.boundKey(matching: record.dpopThumbprint) else {
                    throw .keyRecordUnreadable(reason: "the key record holds another key than the tokens'")
                }
                proofKey = key
            } catch .storeFailed(let reason) {
                // The key record could not be read now (a locked device): the key may be fine, keep the session.
                return Self.failed(.storage(reason), stored: stored)
            } catch {
                return Self.failed(.dpopKeyUnavailable(reason: Self.keyReason(error)), stored: stored)
            }
        }
        // A session with an ID token gets refreshed ones checked against it: without the issuer's keys the answer
        // could not be checked, its tokens not used, and every caller would spend another rotation while the keys
        // stay out of reach. So the keys come first, fetched afresh (cached keys may be those a rotation retired),
        // and a session that cannot fetch them stays offline (a failed fetch keeps the cache).
        if record.idToken != nil {
            do throws(OIDCError) {
                _ = try await provider.keySet(forceRefresh: true)
            } catch {
                return Self.failed(await failure(error, stored: stored, presented: false), stored: stored)
            }
        }
        // Journaled in the record before the grant leaves: a mark already there is an interrupted renewal's.
        let marked: StoredCredentials
        do {
            marked = try await tokens.markRenewalStarted(on: record)
        } catch {
            return Self.failed(.storage(error.localizedDescription), stored: stored)
        }
        let interrupted = record.renewalStartedAt != nil
        let response: TokenResponse
        do {
            response = try await provider.refresh(refreshToken: refreshToken, proofKey: proofKey)
        } catch {
            // A refusal of a refresh token that someone else (a process not using the lock) has meanwhile replaced
            // is not a logout: go on with the stored tokens.
            if error.isRefusal, let current = await tokens.snapshot(), current.refreshToken != refreshToken,
               let session = current.session {
                return (.renewalSucceeded(session), nil)
            }
            if interrupted, error.isRefusal {
                return Self.failed(.interruptedRenewalRefused(reason: error.refusalReason), stored: stored)
            }
            return Self.failed(await failure(error, stored: stored), stored: stored)
        }
        var profile: Profile?
        if let idToken = response.idToken {
            // OIDC Core 12.2 + 3.1.3.7: every check of registration, and iss/sub (and nonce) equal to the original.
            // A refresh answer that fails them (or cannot be checked now) keeps the session: nothing of it is used,
            // and only its rotated refresh token is stored (``TokenService/clearRenewalMark(on:keepingRotationOf:)``): the provider misbehaved once.
            guard let original = record.idToken else {
                try? await tokens.clearRenewalMark(on: marked, keepingRotationOf: response)
                return Self.failed(.invalidRefreshedIDToken(reason: "no original ID token to compare with"), stored: stored)
            }
            do {
                profile = try await provider.validateRefreshedIDToken(idToken, originalIDToken: original).profile
            } catch {
                // The provider retired the refresh token it rotated whatever the check finds, refused or not made
                // (its keys cannot be fetched now): the successor is kept either way.
                try? await tokens.clearRenewalMark(on: marked, keepingRotationOf: response)
                if case .invalidIDToken(let reason) = error {
                    return Self.failed(.invalidRefreshedIDToken(reason: reason.checkName), stored: stored)
                }
                return Self.failed(await failure(error, stored: stored), stored: stored)
            }
        }
        do {
            guard let renewed = try await tokens.storeRenewed(response, profile: profile, over: marked,
                                                               forRejection: forRejection) else {
                return Self.failed(.storage("the session changed during renewal"), stored: await tokens.storedSession())
            }
            guard let session = renewed.summary else { throw TokenServiceError.corrupt }
            // What every caller gets: the record just written, bound to the key that signed the grant's proof.
            let credential = await tokens.isUsable(renewed) ? credential(from: renewed, key: proofKey) : nil
            return (.renewalSucceeded(session), credential)
        } catch {
            return Self.failed(.storage(error.localizedDescription), stored: stored)
        }
    }

    /// The credential of `record`'s access token: bearer, or DPoP with `key` (else the key the record names); `nil`
    /// when that key is not the stored one (the caller then reads the record, and its key, itself).
    private func credential(from record: StoredCredentials, key: DPoPKey? = nil) -> AccessCredential? {
        guard record.isDPoPBound else { return record.accessCredential(key: nil) }
        return record.accessCredential(key: key ?? (try? dpop?.boundKey(matching: record.dpopThumbprint)))
    }

    private static func keyReason(_ error: DPoPError) -> String {
        switch error {
        case .keyRecordUnreadable(let reason): reason
        case .keyRecordWrongCurve(let curve): "the key is on curve \(curve), not P-256"
        default: error.errorDescription ?? "unusable"
        }
    }

    /// Only an explicit refusal (``OIDCError/isRefusal``) is final; a transient failure is final only when every
    /// token, the refresh token included, has expired.
    private func classify(_ error: OIDCError, stored: StoredSession?, presented: Bool = true) -> RenewalFailure {
        // A refusal is the provider's denial of the refresh token only when one was presented (not of a key set).
        if presented, error.isRefusal { return .denied(reason: error.refusalReason) }
        if let refreshExpiresAt = stored?.refreshExpiresAt, refreshExpiresAt <= clock.now() {
            return .credentialsExhausted
        }
        return .transient(TransientIssue(error))
    }
}
