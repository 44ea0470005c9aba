import Foundation

extension RegStateService {
    /// Whether the stored session's tokens are bound to the installation's DPoP key, with the key's RFC 7638
    /// thumbprint (never the key), for `status`.
    public func tokenBinding() async -> TokenBinding {
        guard let snapshot = await runner.tokens.snapshot(), snapshot.session != nil else { return .none }
        guard snapshot.isDPoPBound else { return .bearer }
        do {
            guard let key = try runner.dpop.boundKey(matching: snapshot.dpopThumbprint) else {
                return .dpopKeyUnavailable(reason: "the key record holds another key than the tokens'")
            }
            return .dpop(thumbprint: key.thumbprint)
        } catch {
            return .dpopKeyUnavailable(reason: error.errorDescription ?? "unreadable")
        }
    }

    /// ``validAccessToken()``'s credential. The DPoP key is a store value of its own, used only when it is the one the
    /// record names (`dpop_jkt`): when another process's registration replaced it after the record was read, this
    /// waits for that registration's write (under the store's lock) and reads both again, once.
    /// - Throws: as ``validAccessToken()``; `dpopKeyUnavailable` when a bound token's key cannot be read (the session
    ///   has then ended: **E** final, **D**).
    func validCredential(waitedForWriter: Bool = false) async throws(RegStateServiceError) -> AccessCredential {
        try await credential(for: try await accessTokenAnswer().value.get(), waitedForWriter: waitedForWriter)
    }

    /// The credential of an access-token answer: a renewal's as it came; a stored record's with the key it names.
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
            // The store refused the read now (a locked device): the key may be fine, and the stored token is fresh.
            // A recoverable storage failure, as the renewal's own read of the key is; renewing would present the
            // refresh token of a record whose access token is still good (and end the session if the key is gone).
            throw .renewal(.storage(reason))
        } catch {
            throw await keyUnavailable(snapshot.accessToken, reason: error.errorDescription ?? "unreadable")
        }
        if let credential = snapshot.record.accessCredential(key: key) { return credential }
        guard waitedForWriter else {
            do {
                try await runner.tokens.exclusiveAccess().release()
            } catch {
                throw .storage(error.errorDescription ?? "store")
            }
            return try await validCredential(waitedForWriter: true)
        }
        throw await keyUnavailable(snapshot.accessToken, reason: "the key record holds another key than the tokens'")
    }

    /// Bound tokens are useless without their key: the session ends the way a renewal finds it (the final
    /// `dpopKeyUnavailable`, storage cleared, D) instead of failing every request while it looks active.
    private func keyUnavailable(_ current: String, reason: String) async -> RegStateServiceError {
        if case .failure(let error) = await renewAccessToken(replacing: current, because: .host) { return error }
        return .renewal(.dpopKeyUnavailable(reason: reason))
    }
}
