import Foundation

/// The access token for the app's requests: the walk from a stale token to a usable credential, in one file.
extension RegStateService {
    /// A usable access token, renewed first when it has expired (concurrent callers share one renewal), as a
    /// credential: a DPoP-bound one goes through ``AuthorizedTransport``, which adds the proof.
    /// - Throws: ``RegStateServiceError/offline(_:)`` (the session stays active) or
    ///   ``RegStateServiceError/renewal(_:)`` (**E**) when renewal fails; ``RegStateServiceError/noSession``;
    ///   ``RegStateServiceError/wrongSessionSource(_:)`` for a host-driven session (it has no access token).
    public nonisolated func validAccessToken() async throws(RegStateServiceError) -> AccessCredential {
        // Nonisolated: when the shared answer lands its waiters resume side by side, not one by one on the actor.
        try await credential(for: try await accessTokenAnswer().value.get())
    }

    /// The ``validAccessToken()`` answer in progress, or a new one (after a store unreadable at launch, read again).
    func accessTokenAnswer() async throws(RegStateServiceError)
        -> Task<Result<AccessTokenAnswer, RegStateServiceError>, Never>
    {
        _ = await retryUnreadableStore()
        guard case .active(let session) = state else { throw .noSession }
        guard !session.isHostDriven else { throw .wrongSessionSource(.host) }
        return answers.join {
            do throws(RegStateServiceError) {
                return .success(try await self.resolveAccessToken())
            } catch {
                return .failure(error)
            }
        }.task
    }

    /// One read of the record and, when its token has expired, one renewal, whose credential is the answer.
    private func resolveAccessToken() async throws(RegStateServiceError) -> AccessTokenAnswer {
        guard case .active = state else { throw .noSession }
        guard let current = try await readRecord() else { throw .noSession }
        if current.isUsable { return .stored(current) }
        let renewal = await renewAccessToken(replacing: current.accessToken, because: .expired, seen: current)
        if case .success(let credential?) = renewal { return .renewed(credential) }
        // No credential at hand (nothing was done, or its key is not the stored one): the record decides.
        if let renewed = await runner.tokens.snapshot(), renewed.isUsable { return .stored(renewed) }
        if case .failure(let error) = renewal { throw error }
        throw .offline(.ssoUnspecifiedIssue)
    }

    /// The stored record; a store that cannot be read now (a locked device) is a recoverable **E**, not "no session".
    func readRecord() async throws(RegStateServiceError) -> TokenSnapshot? {
        do {
            return try await runner.tokens.readSnapshot()
        } catch {
            throw .renewal(.storage(error.errorDescription ?? "unreadable"))
        }
    }

    /// The credential of an access-token answer: a renewal's as it came; a stored record's with the DPoP key it names
    /// (`dpop_jkt`), waiting once for a registration that replaced the key (docs/Internals-Services.md).
    /// - Throws: as ``validAccessToken()``; `dpopKeyUnavailable` (**E** final, **D**) when a bound token's key
    ///   cannot be read.
    func credential(for answer: AccessTokenAnswer, waitedForWriter: Bool = false) async throws(RegStateServiceError)
        -> AccessCredential
    {
        guard case .stored(let snapshot) = answer else {
            if case .renewed(let credential) = answer { return credential }
            throw .noSession
        }
        // The token type comes from the same record as the token, so a bound token is never sent as Bearer.
        let key: DPoPKey?
        do {
            key = snapshot.isDPoPBound ? try runner.dpop.boundKey(matching: snapshot.dpopThumbprint) : nil
        } catch .storeFailed(let reason) {
            // Refused now (a locked device): the key may be fine and the token is fresh; renewing would present the
            // refresh token of a record whose access token is still good.
            throw .renewal(.storage(reason))
        } catch {
            throw await keyUnavailable(snapshot.accessToken, reason: error.errorDescription ?? "unreadable")
        }
        if let credential = snapshot.record.accessCredential(key: key) { return credential }
        guard waitedForWriter else {
            do {
                try await runner.tokens.withExclusiveAccess { () throws(StoreError) in }
            } catch {
                throw .storage(error)
            }
            return try await credential(for: try await accessTokenAnswer().value.get(), waitedForWriter: true)
        }
        throw await keyUnavailable(snapshot.accessToken, reason: "the key record holds another key than the tokens'")
    }

    /// Bound tokens are useless without their key: the session ends as a renewal would end it (**E** final, **D**).
    private func keyUnavailable(_ current: String, reason: String) async -> RegStateServiceError {
        if case .failure(let error) = await renewAccessToken(replacing: current, because: .host) { return error }
        return .renewal(.dpopKeyUnavailable(reason: reason))
    }
}
